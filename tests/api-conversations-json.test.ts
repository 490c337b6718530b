import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { conversationAppend, conversationCreate } from '../lib/loom/conversations'
import { createMissingSchema } from '../lib/setup/init'
import { runBegin } from '../lib/loom/runs'
import { runConversations } from '../lib/queries/conversations'
import { GET as conversationsRoute } from '../app/api/runs/[org]/[namespace]/[agent]/[runId]/conversations/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'

useFreshEngine('api-conversations-json')

const RUN = { org: 'acme', namespace: 'prod', agent: 'talker', runId: 'run-talk' }

before(async () => {
  await createMissingSchema({ history: true })
  const identity = { ...RUN, userId: 'u1', sessionId: 's1' }
  await runBegin({ ...identity, goal: 'talk' })
  const t0 = Date.parse('2026-11-20T10:00:00.000Z')
  const at = (ms: number) => () => new Date(t0 + ms)
  await conversationCreate({ ...identity, conversationId: 'c-b', title: 'Second "quoted" \\ title' }, at(50))
  await conversationCreate({ ...identity, conversationId: 'c-a', title: 'First' }, at(10))
  const turns: [string, 'system' | 'user' | 'assistant' | 'tool', string, string?][] = [
    ['c-a', 'system', 'You are terse.'],
    ['c-a', 'user', 'naïve café 🚀 — 東京\nline two\t"tab"'],
    ['c-a', 'tool', '{"hits":[1,2]}', 'memory.search'],
    ['c-b', 'user', 'a </script> and \u2028 separator'],
    ['c-b', 'assistant', ''],
    // A conversation without a conversation row: its turns still belong to the run.
    ['c-orphan', 'user', 'lost / found'],
  ]
  let ms = 100
  for (const [conversationId, role, content, toolName] of turns) {
    await conversationAppend(
      { ...identity, conversationId, role, content, toolName, inputTokens: 12, outputTokens: 3, costUsd: 0.00042 },
      at((ms += 100)),
    )
  }
})

test('GET R/conversations, written by ClickHouse, equals what the query module reads and types', async () => {
  const res = await call(conversationsRoute, '/x', RUN)
  assert.equal(res.status, 200)
  assert.equal(res.headers['content-type'], 'application/json')
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(await runConversations(RUN))))
  assert.deepEqual(
    res.body.conversations.map((c: { conversationId: string; turns: unknown[] }) => [c.conversationId, c.turns.length]),
    [
      ['c-a', 3],
      ['c-b', 2],
      ['c-orphan', 1],
    ],
  )
  assert.equal(res.body.conversations[0].turns[1].content, 'naïve café 🚀 — 東京\nline two\t"tab"')
  assert.deepEqual(res.body.cuts, [])
})

test('an unknown run is a 404; a known run without conversations answers an empty list', async () => {
  const missing = await call(conversationsRoute, '/x', { ...RUN, runId: 'nope' })
  assert.equal(missing.status, 404)
  await runBegin({ ...RUN, runId: 'run-quiet', userId: '', sessionId: '', goal: 'quiet' })
  const quiet = await call(conversationsRoute, '/x', { ...RUN, runId: 'run-quiet' })
  assert.equal(quiet.status, 200)
  assert.deepEqual(quiet.body, { conversations: [], cuts: [] })
})
