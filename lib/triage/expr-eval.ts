/**
 * The TypeScript compiler of the triage expressions (./expr.ts): a function over one run's merged
 * columns (RunTriage) that gives what the SQL form gives for that run. It follows ClickHouse where
 * the two could differ: positions count from 1 (negative ones from the end), a position out of
 * range reads an empty value, the median is quantileExactInclusive(0.5)'s (lib/resume/rows.ts),
 * 0 for none. `and` / `or` stop at the first deciding operand; a `let_` value is computed once.
 */
import { median } from '../resume/rows'
import { COLUMNS, WRITE_FIELDS, type CheckpointWrite, type E, type Node, type RunTriage, type Ty } from './expr'

type Env = { t: RunTriage; nowMs: number; vars: unknown[] }
type Fn = (env: Env) => unknown

const emptyOf = (ty: Ty): unknown =>
  typeof ty === 'object' ? [] : ty === 'num' ? 0 : ty === 'str' ? '' : ty === 'bool' ? false : undefined

function compile(n: Node): Fn {
  switch (n.k) {
    case 'lit': {
      const v = n.v
      return () => v
    }
    case 'col': {
      const value = COLUMNS[n.name].value
      return (env) => value(env.t, env.nowMs)
    }
    case 'var': {
      const id = n.id
      return (env) => env.vars[id]
    }
    case 'field': {
      const { value, empty } = WRITE_FIELDS[n.f]
      const rec = compile(n.rec)
      return (env) => {
        const w = rec(env) as CheckpointWrite | undefined
        return w === undefined ? empty : value(w)
      }
    }
    case 'cmp': {
      const [a, b] = [compile(n.a), compile(n.b)] as ((env: Env) => number)[]
      switch (n.op) {
        case '=':
          return (env) => a(env) === b(env)
        case '!=':
          return (env) => a(env) !== b(env)
        case '<':
          return (env) => a(env) < b(env)
        case '<=':
          return (env) => a(env) <= b(env)
        case '>':
          return (env) => a(env) > b(env)
        case '>=':
          return (env) => a(env) >= b(env)
      }
    }
    case 'and': {
      const xs = n.xs.map(compile)
      return (env) => xs.every((x) => x(env) === true)
    }
    case 'or': {
      const xs = n.xs.map(compile)
      return (env) => xs.some((x) => x(env) === true)
    }
    case 'not': {
      const x = compile(n.x)
      return (env) => x(env) !== true
    }
    case 'in': {
      const [x, values] = [compile(n.x), n.values as unknown[]]
      return (env) => values.includes(x(env))
    }
    case 'arith': {
      const [a, b] = [compile(n.a), compile(n.b)] as ((env: Env) => number)[]
      if (n.op === '+') return (env) => a(env) + b(env)
      if (n.op === '-') return (env) => a(env) - b(env)
      return (env) => a(env) * b(env)
    }
    case 'greatest': {
      const xs = n.xs.map(compile) as ((env: Env) => number)[]
      return (env) => Math.max(...xs.map((x) => x(env)))
    }
    case 'filter':
    case 'map':
    case 'flatMap':
    case 'exists':
    case 'firstIndex': {
      const [list, body, id] = [compile(n.list) as (env: Env) => unknown[], compile(n.body), n.v.id]
      const each = (env: Env, x: unknown) => {
        env.vars[id] = x
        return body(env)
      }
      if (n.k === 'filter') return (env) => list(env).filter((x) => each(env, x) === true)
      if (n.k === 'map') return (env) => list(env).map((x) => each(env, x))
      if (n.k === 'flatMap') return (env) => list(env).flatMap((x) => each(env, x) as unknown[])
      if (n.k === 'exists') return (env) => list(env).some((x) => each(env, x) === true)
      return (env) => list(env).findIndex((x) => each(env, x) === true) + 1
    }
    case 'existsPairs': {
      const [list, body, a, b] = [compile(n.list) as (env: Env) => unknown[], compile(n.body), n.a.id, n.b.id]
      return (env) =>
        list(env).some((x, i, xs) => {
          if (i === 0) return false
          env.vars[a] = xs[i - 1]
          env.vars[b] = x
          return body(env) === true
        })
    }
    case 'existsAt': {
      const [list, body, v, at] = [compile(n.list) as (env: Env) => unknown[], compile(n.body), n.v.id, n.i.id]
      return (env) =>
        list(env).some((x, i) => {
          env.vars[v] = x
          env.vars[at] = i + 1
          return body(env) === true
        })
    }
    case 'item': {
      const [list, index, empty] = [compile(n.list) as (env: Env) => unknown[], compile(n.index), emptyOf(n.ty)]
      return (env) => {
        const xs = list(env)
        const i = index(env) as number
        const at = i > 0 ? i - 1 : i < 0 ? xs.length + i : -1
        return at >= 0 && at < xs.length ? xs[at] : empty
      }
    }
    case 'splitBy': {
      const [list, key] = [compile(n.list) as (env: Env) => CheckpointWrite[], WRITE_FIELDS[n.f].value]
      return (env) => {
        const out: CheckpointWrite[][] = []
        const xs = list(env)
        for (const [i, w] of xs.entries()) {
          if (i === 0 || key(w) !== key(xs[i - 1])) out.push([])
          out[out.length - 1].push(w)
        }
        return out
      }
    }
    case 'diffs': {
      const list = compile(n.list) as (env: Env) => number[]
      return (env) => {
        const xs = list(env)
        return xs.slice(1).map((x, i) => x - xs[i])
      }
    }
    case 'median': {
      const list = compile(n.list) as (env: Env) => number[]
      return (env) => median(list(env))
    }
    case 'let': {
      const [value, body, id] = [compile(n.value), compile(n.body), n.v.id]
      return (env) => {
        env.vars[id] = value(env)
        return body(env)
      }
    }
  }
}

/** The expression as a function of one run's columns and the moment it is judged at. */
export function toEvaluator<T>(e: E<T>): (t: RunTriage, nowMs: number) => T {
  const fn = compile(e.node)
  return (t, nowMs) => fn({ t, nowMs, vars: [] }) as T
}
