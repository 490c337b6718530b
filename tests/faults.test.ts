import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'
import { z } from 'zod'
import { queryRows } from '../lib/clickhouse/query'
import { errorResponse } from '../lib/http/handler'
import { GET as health } from '../app/api/health/route'
import { GET as runs } from '../app/api/runs/route'
import { useFreshEngine } from './helpers/engine'
import { call } from './helpers/routes'
import { SERVER_NODE_ARGS } from '../scripts/server-node'

const dir = useFreshEngine('faults')

function holdDataDir(): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_ARGS, path.join(__dirname, 'helpers', 'hold-data-dir.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    )
    child.on('error', reject)
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('holding'))
        resolve(
          () =>
            new Promise((done) => {
              child.on('exit', () => done())
              child.kill('SIGKILL')
            }),
        )
    })
  })
}

test('data directory locked by another process → 503, then recovers when it is released', async () => {
  const release = await holdDataDir()
  try {
    for (const h of [runs, health]) {
      const res = await call(h, '/api/runs')
      assert.equal(res.status, 503)
      assert.equal(res.body.error.code, 'unavailable')
      assert.match(res.body.error.message, /data directory/)
    }
  } finally {
    await release()
  }
  const ok = await call(runs, '/api/runs')
  assert.equal(ok.status, 200, JSON.stringify(ok.body))
  assert.deepEqual(ok.body.runs, [])
})

test('a query over its time budget → 504 with the contract body', async () => {
  const err = await queryRows('SELECT sleep(2) AS s', {}, z.object({ s: z.coerce.number() }), {
    settings: { max_execution_time: 1 },
  }).then(
    () => null,
    (e: unknown) => e,
  )
  assert.ok(err, 'the slow query failed')
  const res = errorResponse(err)
  assert.equal(res.status, 504)
  const body = await res.json()
  assert.equal(body.error.code, 'timeout')
})

test('a query that times out part way leaves nothing behind: the next queries get only their own rows', async () => {
  const n = z.object({ n: z.coerce.number() })
  // Streams rows for ~100 s in blocks of 10; the budget stops it after 1 s with some rows produced.
  const slow = queryRows(
    'SELECT number AS n, sleepEachRow(0.001) AS s FROM numbers(100000) SETTINGS max_block_size = 10',
    {},
    n,
    {
      settings: { max_execution_time: 1 },
    },
  )
  // Queued behind it, as a concurrent request would be.
  const next = queryRows('SELECT 42 AS n', {}, n)
  await assert.rejects(slow, /time budget/)
  assert.deepEqual(await next, [{ n: 42 }])
  assert.deepEqual(await queryRows('SELECT number + 7 AS n FROM numbers(2)', {}, n), [{ n: 7 }, { n: 8 }])
})
