import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { z } from 'zod'
import { queryRows } from '../lib/clickhouse/query'
import { asOneRequest } from '../lib/clickhouse/turn'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('engine-turns')

const stamp = z.object({ tag: z.string(), t: z.string() })

/** One statement that records when the engine ran it. */
const step = async (tag: string, ran: { tag: string; t: string }[]) => {
  const [row] = await queryRows('SELECT {tag:String} AS tag, toString(now64(6)) AS t', { tag }, stamp)
  ran.push(row)
}

describe('the embedded engine’s turns', () => {
  test('the request that arrived first has its statements run first, even when it sends them one after another', async () => {
    const ran: { tag: string; t: string }[] = []
    // Keeps the engine busy while both requests line up their first statements.
    const blocker = queryRows('SELECT sleepEachRow(0.2) AS s FROM numbers(1)', {}, z.object({ s: z.coerce.number() }))
    const request = (name: string) =>
      asOneRequest(async () => {
        for (let i = 1; i <= 3; i++) await step(`${name}${i}`, ran)
      })
    const older = request('a')
    await new Promise((r) => setTimeout(r, 20))
    const newer = request('b')
    await Promise.all([blocker, older, newer])
    const order = [...ran].sort((x, y) => x.t.localeCompare(y.t)).map((r) => r.tag)
    assert.deepEqual(order, ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'])
  })

  test('statements outside a request take their turn when they are sent', async () => {
    const ran: { tag: string; t: string }[] = []
    const blocker = queryRows('SELECT sleepEachRow(0.1) AS s FROM numbers(1)', {}, z.object({ s: z.coerce.number() }))
    const first = step('x', ran)
    await new Promise((r) => setTimeout(r, 5))
    const second = step('y', ran)
    await Promise.all([blocker, first, second])
    assert.deepEqual([...ran].sort((x, y) => x.t.localeCompare(y.t)).map((r) => r.tag), ['x', 'y'])
  })
})
