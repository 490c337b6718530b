/**
 * The SQL compiler of the triage expressions (./expr.ts): ClickHouse SQL over the merged per-run
 * columns, with the same functions a hand-written condition would use (arrayExists, arrayFilter,
 * arraySplit, arrayReduce('quantileExactInclusive(0.5)'), …), since on small data a statement's cost
 * is mostly planning its expressions. A `let_` value is written where it is used; a lambda's
 * variable is named by what it ranges over (x a write, g a block, d a number), numbered only where
 * that name would hide an outer variable the lambda reads.
 */
import { join, trusted, type Sql } from '../clickhouse/sql'
import {
  boundBy,
  children,
  COLUMNS,
  NOW_MARK,
  WRITE_FIELDS,
  type CmpOp,
  type ColumnName,
  type E,
  type Node,
  type Ty,
  type Var,
} from './expr'

/** Precedence of what a compiled piece is, from OR (loosest) to an atom (a name, a call, a literal). */
const OR = 1
const AND = 2
const NOT = 3
const CMP = 4
const ADD = 5
const MUL = 6
const ATOM = 9

type Out = { text: string; prec: number }
/** Columns read under other names (a statement over other columns than the merged ones). */
export type ColumnSql = Partial<Record<ColumnName, string>>

type Scope = { names: Map<number, string>; lets: Map<number, Node>; columns?: ColumnSql }

const paren = (o: Out, min: number) => (o.prec < min ? `(${o.text})` : o.text)

const INVERSE: Record<CmpOp, CmpOp> = { '=': '!=', '!=': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' }

function literal(v: number | string | boolean): string {
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`)
    return String(v)
  }
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

const baseName = (v: Var): string => v.hint ?? nameOf(v.ty)
const nameOf = (ty: Ty): string =>
  typeof ty === 'object' ? 'g' : ty === 'write' ? 'x' : ty === 'num' ? 'd' : ty === 'str' ? 's' : 'b'

/** The ids of the variables `nodes` read that are bound outside them (a `let_` variable reads its value's). */
function freeVars(nodes: Node[], outer: Map<number, Node>): Set<number> {
  const lets = new Map(outer)
  const read = new Set<number>()
  const bound = new Set<number>()
  const visit = (n: Node): void => {
    if (n.k === 'var') {
      const value = lets.get(n.id)
      if (value) visit(value)
      else read.add(n.id)
      return
    }
    if (n.k === 'let') lets.set(n.v.id, n.value)
    for (const v of boundBy(n)) bound.add(v.id)
    for (const c of children(n)) visit(c)
  }
  for (const n of nodes) visit(n)
  return new Set([...read].filter((id) => !bound.has(id)))
}

/**
 * Names for new variables (base names, in order) that hide no variable `reads` reads from outside
 * and differ from each other.
 */
function fresh(bases: string[], reads: Node[], scope: Scope): string[] {
  const taken = new Set([...freeVars(reads, scope.lets)].map((id) => scope.names.get(id)))
  return bases.map((base) => {
    let name = base
    for (let k = 2; taken.has(name); k++) name = `${base}${k}`
    taken.add(name)
    return name
  })
}

function bind(scope: Scope, vars: Var[], names: string[]): Scope {
  const names2 = new Map(scope.names)
  vars.forEach((v, i) => names2.set(v.id, names[i]))
  return { ...scope, names: names2 }
}

const atom = (text: string): Out => ({ text, prec: ATOM })

function compile(n: Node, scope: Scope): Out {
  const c = (x: Node, s: Scope = scope) => compile(x, s)
  switch (n.k) {
    case 'lit':
      return atom(literal(n.v))
    case 'col': {
      if (scope.columns) {
        const text = scope.columns[n.name]
        if (text === undefined) throw new Error(`column ${n.name} is not given`)
        return atom(text)
      }
      const column = COLUMNS[n.name]
      return { text: column.sql, prec: 'prec' in column ? column.prec : ATOM }
    }
    case 'var': {
      const value = scope.lets.get(n.id)
      if (value) return c(value)
      const name = scope.names.get(n.id)
      if (name === undefined) throw new Error(`variable ${n.id} is not bound`)
      return atom(name)
    }
    case 'field':
      return atom(WRITE_FIELDS[n.f].sql(paren(c(n.rec), ATOM)))
    case 'cmp':
      return { text: `${paren(c(n.a), ADD)} ${n.op} ${paren(c(n.b), ADD)}`, prec: CMP }
    case 'and':
      return { text: n.xs.map((x) => paren(c(x), NOT)).join(' AND '), prec: AND }
    case 'or':
      return { text: n.xs.map((x) => paren(c(x), AND)).join(' OR '), prec: OR }
    case 'not': {
      const x = n.x
      // A 0/1 column or field reads `= 0`; a comparison and a membership are turned around.
      if ((x.k === 'col' && 'flag01' in COLUMNS[x.name]) || (x.k === 'field' && 'flag01' in WRITE_FIELDS[x.f]))
        return { text: `${c(x).text} = 0`, prec: CMP }
      if (x.k === 'cmp') return c({ ...x, op: INVERSE[x.op] })
      if (x.k === 'in') return { text: `${paren(c(x.x), ADD)} NOT IN (${x.values.map(literal).join(', ')})`, prec: CMP }
      return { text: `NOT ${paren(c(x), ADD)}`, prec: NOT }
    }
    case 'in':
      return { text: `${paren(c(n.x), ADD)} IN (${n.values.map(literal).join(', ')})`, prec: CMP }
    case 'arith': {
      const prec = n.op === '*' ? MUL : ADD
      return { text: `${paren(c(n.a), prec)} ${n.op} ${paren(c(n.b), prec + 1)}`, prec }
    }
    case 'greatest':
      return atom(`greatest(${n.xs.map((x) => c(x).text).join(', ')})`)
    case 'filter':
    case 'map':
    case 'flatMap':
    case 'exists':
    case 'firstIndex': {
      const [x] = fresh([baseName(n.v)], [n.body], scope)
      const inner = `${x} -> ${paren(c(n.body, bind(scope, [n.v], [x])), AND)}, ${c(n.list).text}`
      const fn = {
        filter: 'arrayFilter',
        map: 'arrayMap',
        flatMap: 'arrayMap',
        exists: 'arrayExists',
        firstIndex: 'arrayFirstIndex',
      }[n.k]
      return atom(n.k === 'flatMap' ? `arrayFlatten(${fn}(${inner}))` : `${fn}(${inner})`)
    }
    case 'existsPairs': {
      const names = fresh([baseName(n.a), baseName(n.b)], [n.body], scope)
      const body = paren(c(n.body, bind(scope, [n.a, n.b], names)), AND)
      const list = c(n.list).text
      return atom(`arrayExists((${names.join(', ')}) -> ${body}, arrayPopBack(${list}), arrayPopFront(${list}))`)
    }
    case 'existsAt': {
      const names = fresh([baseName(n.v), baseName(n.i)], [n.body], scope)
      const body = paren(c(n.body, bind(scope, [n.v, n.i], names)), AND)
      const list = c(n.list).text
      return atom(`arrayExists((${names.join(', ')}) -> ${body}, ${list}, arrayEnumerate(${list}))`)
    }
    case 'item':
      return atom(`${paren(c(n.list), ATOM)}[${c(n.index).text}]`)
    case 'splitBy': {
      const list = paren(c(n.list), ATOM)
      const [x, cut, i] = fresh(['x', 'c', 'i'], [n.list], scope)
      const key = WRITE_FIELDS[n.f].sql
      const cuts = `arrayMap((${x}, ${i}) -> ${i} = 1 OR ${key(x)} != ${key(`${list}[${i} - 1]`)}, ${list}, arrayEnumerate(${list}))`
      return atom(`arraySplit((${x}, ${cut}) -> ${cut}, ${list}, ${cuts})`)
    }
    case 'diffs':
      return atom(`arrayPopFront(arrayDifference(${c(n.list).text}))`)
    case 'median': {
      const list = c(n.list).text
      return atom(`if(empty(${list}), 0, arrayReduce('quantileExactInclusive(0.5)', ${list}))`)
    }
    case 'let': {
      const lets = new Map(scope.lets).set(n.v.id, n.value)
      return c(n.body, { ...scope, lets })
    }
  }
}

/**
 * The expression as SQL text (an expression reading `now` needs `toSql`). `columns`: read the
 * columns it names under these names (atoms: a name or a call) instead of the merged ones; any
 * other column it reads is an error.
 */
export function toSqlText(e: E<unknown>, columns?: ColumnSql): string {
  const text = compile(e.node, { names: new Map(), lets: new Map(), columns }).text
  if (text.includes(NOW_MARK)) throw new Error('the expression reads `now`: compile it with toSql')
  return text
}

/**
 * The expression as a SQL fragment, in parentheses, for a given `now` (a DateTime64 fragment, put
 * where it reads the moment). Compiled once.
 */
export function toSql(e: E<unknown>): (now: Sql) => Sql {
  const pieces = `(${compile(e.node, { names: new Map(), lets: new Map() }).text})`.split(NOW_MARK)
  return (now) =>
    join(
      pieces.flatMap((p, i) => (i === 0 ? [trusted(p)] : [now, trusted(p)])),
      '',
    )
}
