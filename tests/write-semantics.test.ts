import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { z } from 'zod'
import * as q from '../lib/clickhouse/query'
import * as errors from '../lib/errors'
import * as conv from '../lib/loom/conversations'
import type { BlockRef } from '../lib/loom/identity'
import { createMissingSchema } from '../lib/setup/init'
import * as runs from '../lib/loom/runs'
import * as tables from '../lib/loom/tables'
import * as wm from '../lib/loom/working-memory'
import { useFreshEngine } from './helpers/engine'
import { blockHistory } from './helpers/history-rows'

useFreshEngine('write-semantics')

before(async () => {
  await createMissingSchema({ history: true })
})

let blockCounter = 0
/** A block of its own run, so tests never see each other's rows. */
function freshBlock(blockKey = 'checkpoint', over: Partial<BlockRef> = {}): BlockRef {
  blockCounter++
  return {
    org: 'o',
    namespace: 'n',
    agent: 'a',
    userId: '',
    sessionId: '',
    runId: `run-${blockCounter}`,
    blockKey,
    ...over,
  }
}

const ctx = { actor: 'a', sourceTrace: 'host-a/pid-1' }

function assertAppError(code: string) {
  return (err: unknown) => {
    assert.ok(err instanceof errors.AppError, `expected an AppError, got ${String(err)}`)
    assert.equal(err.code, code)
    return true
  }
}

describe('working memory versions', () => {
  test('set, append, delete write versions 1, 2, 3', async () => {
    const ref = freshBlock()
    const a = await wm.wmSet(ref, 'item-001', ctx)
    const b = await wm.wmAppend(ref, 'item-002', ctx)
    const c = await wm.wmDelete(ref, ctx)
    assert.deepEqual([a.row.version, b.row.version, c.row.version], ['1', '2', '3'])
    assert.equal(b.row.content, 'item-001\nitem-002')
    assert.equal(b.previous?.version, '1')
    const rows = await blockHistory(ref)
    assert.deepEqual(
      rows.map((r) => [r.version, r.content, r.is_deleted]),
      [
        ['1', 'item-001', 0],
        ['2', 'item-001\nitem-002', 0],
        ['3', '', 1],
      ],
    )
    const latest = await wm.wmLatestRow(ref)
    assert.equal(latest?.version, '3')
    assert.equal(latest?.is_deleted, 1)
  })

  test('after a tombstone, get returns null and the next set is latest + 1', async () => {
    const ref = freshBlock()
    await wm.wmSet(ref, 'a', ctx)
    await wm.wmSet(ref, 'b', ctx)
    await wm.wmDelete(ref, ctx)
    assert.equal(await wm.wmGet(ref), null)
    const next = await wm.wmSet(ref, 'fresh start', ctx)
    assert.equal(next.row.version, '4')
    assert.equal(next.previous?.is_deleted, 1)
    assert.equal(await wm.wmGet(ref), 'fresh start')
  })

  test('get on an absent block is null; a block under another session is invisible', async () => {
    const ref = freshBlock('checkpoint', { userId: 'u-7', sessionId: 's1' })
    assert.equal(await wm.wmGet(ref), null)
    await wm.wmSet(ref, 'item-001 item-002', ctx)
    assert.equal(await wm.wmGet(ref), 'item-001 item-002')
    assert.equal(await wm.wmGet({ ...ref, sessionId: 's2' }), null)
  })

  test('each write carries its actor, source_trace and the clock it was given', async () => {
    const ref = freshBlock()
    const at = new Date('2025-03-04T05:06:07.089Z')
    const r = await wm.wmSet(ref, 'x', { actor: 'operator:alice', sourceTrace: 'loom-runs-console', now: () => at })
    const latest = await wm.wmLatestRow(ref)
    assert.equal(latest?.actor, 'operator:alice')
    assert.equal(latest?.source_trace, 'loom-runs-console')
    assert.equal(latest?.updated_at, '2025-03-04T05:06:07.089Z')
    assert.equal(r.row.updated_at, '2025-03-04T05:06:07.089Z')
  })
})

describe('append newline rule', () => {
  test('no newline when the block is absent', async () => {
    const ref = freshBlock('notes')
    const r = await wm.wmAppend(ref, 'first', ctx)
    assert.equal(r.row.content, 'first')
    assert.equal(r.row.version, '1')
  })

  test('no newline when the block is empty', async () => {
    const ref = freshBlock('notes')
    await wm.wmSet(ref, '', ctx)
    const r = await wm.wmAppend(ref, 'first', ctx)
    assert.equal(r.row.content, 'first')
  })

  test('no newline after a tombstone (the cleared content is not resurrected)', async () => {
    const ref = freshBlock('notes')
    await wm.wmSet(ref, 'old', ctx)
    await wm.wmDelete(ref, ctx)
    const r = await wm.wmAppend(ref, 'new', ctx)
    assert.equal(r.row.content, 'new')
    assert.equal(r.row.version, '3')
    assert.equal(r.row.is_deleted, 0)
  })

  test('"\\n" between the latest content and the text otherwise', async () => {
    const ref = freshBlock('notes')
    await wm.wmSet(ref, 'a', ctx)
    await wm.wmAppend(ref, 'b', ctx)
    const r = await wm.wmAppend(ref, 'c', ctx)
    assert.equal(r.row.content, 'a\nb\nc')
    const blank = await wm.wmAppend(ref, '', ctx)
    assert.equal(blank.row.content, 'a\nb\nc\n')
    assert.equal(await wm.wmGet(ref), 'a\nb\nc\n')
  })
})

describe('render', () => {
  test('every live block, ordered by block_key, as "## key\\ncontent"; tombstoned blocks left out', async () => {
    const base = freshBlock()
    const at = (blockKey: string) => ({ ...base, blockKey })
    await wm.wmSet(at('zeta'), 'Z1', ctx)
    await wm.wmAppend(at('zeta'), 'Z2', ctx)
    await wm.wmSet(at('checkpoint'), 'item-001 item-002', ctx)
    await wm.wmSet(at('alpha'), 'A', ctx)
    await wm.wmSet(at('gone'), 'will be cleared', ctx)
    await wm.wmDelete(at('gone'), ctx)
    // Same run_id under another session, and another run: neither belongs to this render.
    await wm.wmSet({ ...base, sessionId: 'other', blockKey: 'beta' }, 'not mine', ctx)
    await wm.wmSet({ ...base, runId: `${base.runId}-other`, blockKey: 'beta' }, 'not mine either', ctx)
    const text = await wm.wmRender(base, base.runId)
    assert.equal(text, '## alpha\nA\n\n## checkpoint\nitem-001 item-002\n\n## zeta\nZ1\nZ2')
  })

  test('a run without live blocks renders as the empty string', async () => {
    const ref = freshBlock()
    assert.equal(await wm.wmRender(ref, ref.runId), '')
    await wm.wmSet(ref, 'x', ctx)
    await wm.wmDelete(ref, ctx)
    assert.equal(await wm.wmRender(ref, ref.runId), '')
  })
})

describe('char_limit', () => {
  test('a set over the block char_limit throws too_large and writes nothing', async () => {
    const ref = freshBlock()
    await wm.wmSet(ref, '0123456789', ctx, { charLimit: 10 })
    const before = await blockHistory(ref)
    await assert.rejects(wm.wmSet(ref, '0123456789A', ctx), (err: unknown) => {
      assertAppError('too_large')(err)
      const e = err as errors.AppError
      assert.equal(e.status, 413)
      assert.deepEqual(e.details, { chars: 11, charLimit: 10 })
      return true
    })
    // An existing block keeps its own char_limit whatever the write asks for.
    await assert.rejects(wm.wmSet(ref, '0123456789A', ctx, { charLimit: 100 }), assertAppError('too_large'))
    await assert.rejects(wm.wmAppend(ref, 'x', ctx), assertAppError('too_large'))
    const after = await blockHistory(ref)
    assert.equal(after.length, before.length)
    assert.equal(after.length, 1)
    assert.equal(after[0].char_limit, 10)
    assert.equal(await wm.wmGet(ref), '0123456789')
  })

  test('the default char_limit is 4096; a refused first write leaves the block absent', async () => {
    const ref = freshBlock()
    await assert.rejects(wm.wmSet(ref, 'x'.repeat(4097), ctx), assertAppError('too_large'))
    assert.equal((await blockHistory(ref)).length, 0)
    assert.equal(await wm.wmLatestRow(ref), null)
    const ok = await wm.wmSet(ref, 'x'.repeat(4096), ctx)
    assert.equal(ok.row.char_limit, 4096)
    assert.equal(ok.row.version, '1')
  })

  test('characters are counted in code points: 4096 emoji fit a 4096 limit, 4097 do not', async () => {
    const emoji = '😀'
    assert.equal(emoji.length, 2)
    const ref = freshBlock()
    const content = emoji.repeat(4096)
    const r = await wm.wmSet(ref, content, ctx)
    assert.equal(r.row.version, '1')
    assert.equal(await wm.wmGet(ref), content)
    await assert.rejects(wm.wmSet(ref, emoji.repeat(4097), ctx), assertAppError('too_large'))
    assert.equal((await blockHistory(ref)).length, 1)
  })
})

describe('expected version', () => {
  test('a mismatch throws conflict and writes nothing', async () => {
    const ref = freshBlock()
    const first = await wm.wmSet(ref, 'v1', ctx, { expectedVersion: '0' })
    assert.equal(first.row.version, '1')
    await assert.rejects(wm.wmSet(ref, 'stale edit', ctx, { expectedVersion: '0' }), (err: unknown) => {
      assertAppError('conflict')(err)
      const e = err as errors.AppError
      assert.equal(e.status, 409)
      assert.equal((e.details?.current as { version: string }).version, '1')
      return true
    })
    await assert.rejects(wm.wmDelete(ref, ctx, { expectedVersion: '7' }), assertAppError('conflict'))
    await assert.rejects(wm.wmAppend(ref, 'x', ctx, { expectedVersion: '2' }), assertAppError('conflict'))
    assert.deepEqual(
      (await blockHistory(ref)).map((r) => r.version),
      ['1'],
    )
    const second = await wm.wmSet(ref, 'v2', ctx, { expectedVersion: '1', verify: true })
    assert.equal(second.row.version, '2')
    assert.equal(second.confirmed, true)
    assert.equal(await wm.wmGet(ref), 'v2')
  })

  test('20 concurrent sets with the same expectedVersion: exactly one succeeds', async () => {
    const ref = freshBlock()
    await wm.wmSet(ref, 'base', ctx)
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        wm.wmSet(ref, `edit ${i}`, { ...ctx, sourceTrace: `host/pid-${i}` }, { expectedVersion: '1' }),
      ),
    )
    const ok = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    assert.equal(ok.length, 1)
    assert.equal(refused.length, 19)
    for (const r of refused) assertAppError('conflict')(r.reason)
    const winner = (ok[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof wm.wmSet>>>).value
    assert.equal(winner.row.version, '2')
    const rows = await blockHistory(ref)
    assert.deepEqual(
      rows.map((r) => r.version),
      ['1', '2'],
    )
    assert.equal(await wm.wmGet(ref), winner.row.content)
  })
})

describe('runs', () => {
  const ident = { org: 'o', namespace: 'n', agent: 'a', userId: 'u', sessionId: 's' }
  const clockAt = (iso: string) => () => new Date(iso)

  test('run.begin counts attempts; started_at stays the first begin, last_begin_at moves', async () => {
    const run = { ...ident, runId: 'run-attempts', goal: 'index things' }
    const r1 = await runs.runBegin(run, clockAt('2025-01-01T10:00:00.000Z'))
    const r2 = await runs.runBegin({ ...run, goal: '' }, clockAt('2025-01-01T10:20:00.000Z'))
    const r3 = await runs.runBegin({ ...run, sessionId: 's2' }, clockAt('2025-01-01T11:00:00.500Z'))
    assert.deepEqual([r1.attempt, r2.attempt, r3.attempt], [1, 2, 3])
    const row = await runs.runLatestRow(run)
    assert.equal(row?.attempt, 3)
    assert.equal(row?.status, 'running')
    assert.equal(row?.goal, 'index things')
    assert.equal(row?.session_id, 's2')
    assert.equal(row?.started_at, '2025-01-01T10:00:00.000Z')
    assert.equal(row?.last_begin_at, '2025-01-01T11:00:00.500Z')
    assert.equal(row?.completed_at, null)
    assert.equal(row?.duration_ms, null)
    assert.equal(row?.version, '3')
  })

  test('run.complete sets status, completed_at, duration and adds usage', async () => {
    const run = { ...ident, runId: 'run-complete', goal: 'complete me' }
    await runs.runBegin(run, clockAt('2025-01-02T08:00:00.000Z'))
    await runs.runRecordUsage(run, { turns: 2, inputTokens: 100, outputTokens: 10, costUsd: 0.5 })
    await runs.runBegin(run, clockAt('2025-01-02T08:30:00.000Z'))
    const done = await runs.runComplete(
      {
        org: run.org,
        namespace: run.namespace,
        agent: run.agent,
        runId: run.runId,
        status: 'succeeded',
        outcome: 'ok',
        memoriesUsed: ['m1'],
        reflection: { summary: 'fine' },
        confidence: 0.9,
        turns: 3,
        inputTokens: 50,
        outputTokens: 5,
        costUsd: 0.25,
      },
      clockAt('2025-01-02T09:15:30.250Z'),
    )
    assert.equal(done.status, 'succeeded')
    const row = await runs.runLatestRow(run)
    assert.equal(row?.status, 'succeeded')
    assert.equal(row?.completed_at, '2025-01-02T09:15:30.250Z')
    assert.equal(row?.duration_ms, (75 * 60 + 30) * 1000 + 250)
    assert.equal(row?.attempt, 2)
    assert.deepEqual(row?.memories_used, ['m1'])
    assert.deepEqual(JSON.parse(row?.reflection ?? ''), { summary: 'fine' })
    assert.equal(row?.confidence, 0.9)
    assert.equal(row?.turns, 5)
    assert.equal(row?.input_tokens, 150)
    assert.equal(row?.output_tokens, 15)
    assert.equal(row?.cost_usd, 0.75)
  })

  test('run.complete before run.begin is refused', async () => {
    await assert.rejects(
      runs.runComplete({ org: 'o', namespace: 'n', agent: 'a', runId: 'never-begun', status: 'failed' }),
      /before run.begin/,
    )
  })
})

describe('conversations', () => {
  test('conversation.append numbers turns 0..n per conversation', async () => {
    const ident = { org: 'o', namespace: 'n', agent: 'a', userId: '', sessionId: '' }
    await conv.conversationCreate({ ...ident, conversationId: 'c1', runId: 'run-c', title: 't' })
    const roles = ['system', 'user', 'assistant', 'tool', 'assistant'] as const
    const indexes: number[] = []
    for (const role of roles) {
      indexes.push(
        await conv.conversationAppend({ ...ident, conversationId: 'c1', runId: 'run-c', role, content: role }),
      )
    }
    assert.deepEqual(indexes, [0, 1, 2, 3, 4])
    // Concurrent appends are serialized: still one index each, no gaps, no repeats.
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        conv.conversationAppend({ ...ident, conversationId: 'c1', runId: 'run-c', role: 'user', content: `u${i}` }),
      ),
    )
    assert.deepEqual(
      [...concurrent].sort((a, b) => a - b),
      [5, 6, 7, 8, 9],
    )
    assert.equal(
      await conv.conversationAppend({ ...ident, conversationId: 'c2', runId: 'run-c', role: 'user', content: 'x' }),
      0,
    )
    const stored = await q.queryRows(
      `SELECT turn_index, role FROM ${tables.tableNames().turns} WHERE org = 'o' AND namespace = 'n' AND agent = 'a' AND conversation_id = 'c1' ORDER BY turn_index`,
      {},
      z.object({ turn_index: z.coerce.number(), role: z.string() }),
    )
    assert.deepEqual(
      stored.map((r) => r.turn_index),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
    assert.deepEqual(
      stored.slice(0, 5).map((r) => r.role),
      [...roles],
    )
  })
})
