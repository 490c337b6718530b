/**
 * A small typed expression language over one run's merged triage columns, in which each run flag
 * is written once (lib/triage/rules.ts). Two compilers read it: to ClickHouse SQL over the merged
 * per-run columns (./expr-sql.ts), for a flag filter over many runs and for the derivation, and to
 * a TypeScript evaluator over one run's columns (./expr-eval.ts), for per-run lookups.
 *
 * An expression is a tree of plain nodes; the builders below type it (number, string, boolean, a
 * checkpoint write, lists of those). Lambdas are written as TypeScript functions and become
 * variables of the tree. `let_` binds a value once: the SQL form repeats its text where it is used
 * (as a hand-written statement would), the evaluator computes it once, so a value a lambda reads
 * for every element (a block's median) is bound outside that lambda.
 *
 * Where ClickHouse's types and TypeScript's numbers could part, the rules stay on common ground:
 * arithmetic on times (Int64 milliseconds) and small counts, and the write hashes (UInt64 in SQL,
 * strings here) only compared with each other. tests/triage-rules-parity.test.ts runs both forms on
 * the engine over generated runs.
 */

/** What the flags of one run are decided from. */
export type RunTriage = {
  /** The latest run row's status and attempt ('' and 0 for a run without one). */
  status: string
  attempt: number
  startedMs: number
  /** Every checkpoint write, sorted by identity, then version, then time. */
  writes: CheckpointWrite[]
  /** The latest checkpoint (chars 0 and char limit 0 when there is none). */
  checkpoint: { chars: number; charLimit: number; isDeleted: boolean; blobKey: string }
  /** Working-memory rows, and distinct (identity, block, version) keys among them. */
  rows: number
  keys: number
  lastWriteMs: number
  /** The checkpoint's blob_key has no blob row (only meaningful when it names one). */
  blobMissing: boolean
}

/** One checkpoint write as the triage table keeps it. */
export type CheckpointWrite = {
  /** Hash of (user_id, session_id): which block of the run. */
  identity: string
  atMs: number
  operator: boolean
  /** Hash of source_trace: which process wrote it. */
  trace: string
}

/** The merged per-run columns a rule reads (lib/triage/sql.ts says how each is merged). */
export type Needs = 'rs' | 'counts' | 'lw' | 'cp' | 'cw'

/** The runtime type of a node: what the evaluator returns for it, and how the SQL names lambda variables. */
export type Ty = 'num' | 'str' | 'bool' | 'write' | { list: Ty }

/**
 * An input of the rules. `sql`: its text over the merged columns (`now` stands for the bound
 * moment); `flag01`: a 0/1 column, whose negation is written `= 0`; `value`: the same input
 * read from one run's columns.
 */
type Column = {
  ty: Ty
  sql: string
  needs: Needs[]
  flag01?: boolean
  prec?: number
  value: (t: RunTriage, nowMs: number) => unknown
}

const ms = (e: string) => `toUnixTimestamp64Milli(${e})`

/** Where the bound moment goes in a column's SQL (the SQL compiler puts the parameter there). */
export const NOW_MARK = '\u0000now\u0000'

export const COLUMNS = {
  status: { ty: 'str', sql: 'rs.1', needs: ['rs'], value: (t) => t.status },
  attempt: { ty: 'num', sql: 'rs.2', needs: ['rs'], value: (t) => t.attempt },
  startedMs: { ty: 'num', sql: ms('rs.5'), needs: ['rs'], value: (t) => t.startedMs },
  writes: { ty: { list: 'write' }, sql: 'cw', needs: ['cw'], value: (t) => t.writes },
  chars: { ty: 'num', sql: 'cp.1', needs: ['cp'], value: (t) => t.checkpoint.chars },
  charLimit: { ty: 'num', sql: 'cp.2', needs: ['cp'], value: (t) => t.checkpoint.charLimit },
  checkpointDeleted: {
    ty: 'bool',
    sql: 'cp.3',
    flag01: true,
    needs: ['cp'],
    value: (t) => t.checkpoint.isDeleted,
  },
  blobKey: { ty: 'str', sql: 'cp.4', needs: ['cp'], value: (t) => t.checkpoint.blobKey },
  // The statement provides `blobs_present` (org, namespace, agent, blob_key): blobs come and expire.
  blobMissing: {
    ty: 'bool',
    sql: '(org, namespace, agent, cp.4) NOT IN (SELECT org, namespace, agent, blob_key FROM blobs_present)',
    prec: 4,
    needs: ['cp'],
    value: (t) => t.blobMissing,
  },
  rows: { ty: 'num', sql: 'n_rows', needs: ['counts'], value: (t) => t.rows },
  keys: { ty: 'num', sql: 'n_keys', needs: ['counts'], value: (t) => t.keys },
  lastWriteMs: { ty: 'num', sql: ms('lw'), needs: ['lw'], value: (t) => t.lastWriteMs },
  /** The moment the rules are judged at (ms since the epoch). */
  now: { ty: 'num', sql: ms(NOW_MARK), needs: [], value: (_, nowMs) => nowMs },
} satisfies Record<string, Column>

export type ColumnName = keyof typeof COLUMNS

/** The fields of a checkpoint write: `sql` over the write's tuple `x` (identity, at, version, operator, trace). */
export const WRITE_FIELDS = {
  identity: { ty: 'str', sql: (x: string) => `${x}.1`, value: (w: CheckpointWrite) => w.identity, empty: '' },
  at: { ty: 'num', sql: (x: string) => ms(`${x}.2`), value: (w: CheckpointWrite) => w.atMs, empty: 0 },
  operator: {
    ty: 'bool',
    sql: (x: string) => `${x}.4`,
    flag01: true,
    value: (w: CheckpointWrite) => w.operator,
    empty: false,
  },
  trace: { ty: 'str', sql: (x: string) => `${x}.5`, value: (w: CheckpointWrite) => w.trace, empty: '' },
} as const

export type WriteField = keyof typeof WRITE_FIELDS

export type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>='

/** A variable a lambda or `let_` binds (unique in the whole program). */
export type Var = { k: 'var'; id: number; ty: Ty; hint?: string }

export type Node =
  | { k: 'lit'; ty: Ty; v: number | string | boolean }
  | { k: 'col'; ty: Ty; name: ColumnName }
  | Var
  | { k: 'field'; ty: Ty; rec: Node; f: WriteField }
  | { k: 'cmp'; ty: 'bool'; op: CmpOp; a: Node; b: Node }
  | { k: 'and' | 'or'; ty: 'bool'; xs: Node[] }
  | { k: 'not'; ty: 'bool'; x: Node }
  | { k: 'in'; ty: 'bool'; x: Node; values: (number | string)[] }
  | { k: 'arith'; ty: 'num'; op: '+' | '-' | '*'; a: Node; b: Node }
  | { k: 'greatest'; ty: 'num'; xs: Node[] }
  | { k: 'filter' | 'map' | 'flatMap' | 'exists' | 'firstIndex'; ty: Ty; list: Node; v: Var; body: Node }
  | { k: 'existsPairs'; ty: 'bool'; list: Node; a: Var; b: Var; body: Node }
  | { k: 'existsAt'; ty: 'bool'; list: Node; v: Var; i: Var; body: Node }
  | { k: 'item'; ty: Ty; list: Node; index: Node }
  | { k: 'splitBy'; ty: Ty; list: Node; f: WriteField }
  | { k: 'diffs'; ty: Ty; list: Node }
  | { k: 'median'; ty: 'num'; list: Node }
  | { k: 'let'; ty: Ty; v: Var; value: Node; body: Node }

/** A node with the TypeScript type of its value. */
export type E<T> = { readonly node: Node; readonly _t?: T }

/** A checkpoint write's value in the language. */
export type W = { readonly write: true }

type Num = E<number> | number

const wrap = <T>(node: Node): E<T> => ({ node })
const nodeOf = (x: E<unknown> | number | string | boolean): Node =>
  typeof x === 'object'
    ? x.node
    : { k: 'lit', ty: typeof x === 'number' ? 'num' : typeof x === 'string' ? 'str' : 'bool', v: x }

const elementTy = (list: Node): Ty => {
  if (typeof list.ty !== 'object') throw new Error(`not a list: ${JSON.stringify(list.ty)}`)
  return list.ty.list
}

let nextVar = 0
const newVar = (ty: Ty, hint?: string): Var => ({ k: 'var', id: nextVar++, ty, hint })

/** A per-run column. */
export function col<N extends ColumnName>(name: N): E<ColumnValue<N>> {
  return wrap({ k: 'col', ty: COLUMNS[name].ty, name })
}

type TyValue<T> = T extends 'num'
  ? number
  : T extends 'str'
    ? string
    : T extends 'bool'
      ? boolean
      : T extends 'write'
        ? W
        : T extends { list: infer U }
          ? TyValue<U>[]
          : never
type ColumnValue<N extends ColumnName> = TyValue<(typeof COLUMNS)[N]['ty']>
type FieldValue<F extends WriteField> = TyValue<(typeof WRITE_FIELDS)[F]['ty']>

/** A field of a checkpoint write. */
export function field<F extends WriteField>(w: E<W>, f: F): E<FieldValue<F>> {
  return wrap({ k: 'field', ty: WRITE_FIELDS[f].ty, rec: w.node, f })
}

const cmp =
  (op: CmpOp) =>
  <T extends number | string>(a: E<T> | T, b: E<T> | T): E<boolean> =>
    wrap({ k: 'cmp', ty: 'bool', op, a: nodeOf(a), b: nodeOf(b) })
export const eq = cmp('=')
export const ne = cmp('!=')
const numCmp =
  (op: CmpOp) =>
  (a: Num, b: Num): E<boolean> =>
    wrap({ k: 'cmp', ty: 'bool', op, a: nodeOf(a), b: nodeOf(b) })
export const lt = numCmp('<')
export const le = numCmp('<=')
export const gt = numCmp('>')
export const ge = numCmp('>=')

const logic =
  (k: 'and' | 'or') =>
  (...xs: E<boolean>[]): E<boolean> =>
    wrap({ k, ty: 'bool', xs: xs.flatMap((x) => (x.node.k === k ? x.node.xs : [x.node])) })
/** All of, in order (the evaluator stops at the first false one). */
export const and = logic('and')
/** Any of, in order (the evaluator stops at the first true one). */
export const or = logic('or')
export const not = (x: E<boolean>): E<boolean> => wrap({ k: 'not', ty: 'bool', x: x.node })
/** Whether `x` is one of `values`. */
export const oneOf = <T extends number | string>(x: E<T>, values: T[]): E<boolean> =>
  wrap({ k: 'in', ty: 'bool', x: x.node, values })

const arith =
  (op: '+' | '-' | '*') =>
  (a: Num, b: Num): E<number> =>
    wrap({ k: 'arith', ty: 'num', op, a: nodeOf(a), b: nodeOf(b) })
export const add = arith('+')
export const sub = arith('-')
export const mul = arith('*')
export const greatest = (...xs: Num[]): E<number> => wrap({ k: 'greatest', ty: 'num', xs: xs.map(nodeOf) })

type Lambda = 'filter' | 'map' | 'flatMap' | 'exists' | 'firstIndex'
function lambda(k: Lambda, list: Node, fn: (x: E<never>) => E<unknown>, ty: (body: Node) => Ty): Node {
  const v = newVar(elementTy(list))
  const body = fn(wrap(v)).node
  return { k, ty: ty(body), list, v, body }
}

/** The elements of `xs` for which `p` holds, in order. */
export const filter = <T>(xs: E<T[]>, p: (x: E<T>) => E<boolean>): E<T[]> =>
  wrap(lambda('filter', xs.node, p as never, () => xs.node.ty))
export const map = <T, U>(xs: E<T[]>, f: (x: E<T>) => E<U>): E<U[]> =>
  wrap(lambda('map', xs.node, f as never, (body) => ({ list: body.ty })))
/** The lists `f` gives for each element of `xs`, one after another. */
export const flatMap = <T, U>(xs: E<T[]>, f: (x: E<T>) => E<U[]>): E<U[]> =>
  wrap(lambda('flatMap', xs.node, f as never, (body) => body.ty))
export const exists = <T>(xs: E<T[]>, p: (x: E<T>) => E<boolean>): E<boolean> =>
  wrap(lambda('exists', xs.node, p as never, () => 'bool'))
/** The position (from 1) of the first element for which `p` holds; 0 when none does. */
export const firstIndex = <T>(xs: E<T[]>, p: (x: E<T>) => E<boolean>): E<number> =>
  wrap(lambda('firstIndex', xs.node, p as never, () => 'num'))

/** Whether `p` holds for some two consecutive elements (a, then b). */
export function existsPairs<T>(xs: E<T[]>, p: (a: E<T>, b: E<T>) => E<boolean>): E<boolean> {
  const ty = elementTy(xs.node)
  const [a, b] = [newVar(ty, 'a'), newVar(ty, 'b')]
  return wrap({ k: 'existsPairs', ty: 'bool', list: xs.node, a, b, body: p(wrap(a), wrap(b)).node })
}

/** Whether `p` holds for some element and its position (from 1). */
export function existsAt<T>(xs: E<T[]>, p: (x: E<T>, i: E<number>) => E<boolean>): E<boolean> {
  const v = newVar(elementTy(xs.node))
  const i = newVar('num', 'i')
  return wrap({ k: 'existsAt', ty: 'bool', list: xs.node, v, i, body: p(wrap(v), wrap(i)).node })
}

/** The element at position `i` (from 1); out of range, a write whose fields are empty (0, '', false), as in ClickHouse. */
export const item = <T>(xs: E<T[]>, i: Num): E<T> =>
  wrap({ k: 'item', ty: elementTy(xs.node), list: xs.node, index: nodeOf(i) })

/** The writes cut into runs of consecutive writes with the same `f` (the blocks of a run, by identity). */
export const splitBy = (writes: E<W[]>, f: WriteField): E<W[][]> =>
  wrap({ k: 'splitBy', ty: { list: writes.node.ty }, list: writes.node, f })

/** Differences between consecutive numbers (one fewer than the numbers; none for fewer than two). */
export const diffs = (xs: E<number[]>): E<number[]> => wrap({ k: 'diffs', ty: xs.node.ty, list: xs.node })

/** The median (quantileExactInclusive(0.5): the mean of the middle two of an even count); 0 for none. */
export const median = (xs: E<number[]>): E<number> => wrap({ k: 'median', ty: 'num', list: xs.node })

/** `body` over `value`, computed once. */
export function let_<T, U>(value: E<T>, body: (v: E<T>) => E<U>): E<U> {
  const v = newVar(value.node.ty)
  const b = body(wrap(v)).node
  return wrap({ k: 'let', ty: b.ty, v, value: value.node, body: b })
}

/** The merged columns an expression reads. */
export function needsOf(e: E<unknown>): Set<Needs> {
  const out = new Set<Needs>()
  walk(e.node, (n) => {
    if (n.k === 'col') for (const need of COLUMNS[n.name].needs) out.add(need)
  })
  return out
}

/** Calls `visit` on every node of the tree. */
export function walk(n: Node, visit: (n: Node) => void): void {
  visit(n)
  for (const c of children(n)) walk(c, visit)
}

/** A lambda node: a body over the elements of a list, with the variables it binds. */
type LambdaNode = Extract<Node, { list: Node; body: Node }>
const isLambda = (n: Node): n is LambdaNode => 'list' in n && 'body' in n

/** The variables a lambda node binds for its body. */
export function boundBy(n: Node): Var[] {
  if (!isLambda(n)) return []
  if (n.k === 'existsAt') return [n.v, n.i]
  if (n.k === 'existsPairs') return [n.a, n.b]
  return [n.v]
}

export function children(n: Node): Node[] {
  if (isLambda(n)) return [n.list, n.body]
  switch (n.k) {
    case 'lit':
    case 'col':
    case 'var':
      return []
    case 'field':
      return [n.rec]
    case 'cmp':
    case 'arith':
      return [n.a, n.b]
    case 'and':
    case 'or':
    case 'greatest':
      return n.xs
    case 'not':
    case 'in':
      return [n.x]
    case 'item':
      return [n.list, n.index]
    case 'splitBy':
    case 'diffs':
    case 'median':
      return [n.list]
    case 'let':
      return [n.value, n.body]
  }
}
