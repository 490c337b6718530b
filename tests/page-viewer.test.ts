/**
 * Pages check the viewer where they read data, not only in the proxy: the check names nobody for a
 * request without credentials when users are configured, and every page module that reads data
 * awaits it before its first read.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, test } from 'node:test'
import { hashPassword } from '../lib/auth/passwords'
import { viewerOfHeaders } from '../lib/auth/page-viewer'
import { resetConfig } from '../lib/config'
import { peerStamp, PEER_HEADER } from '../lib/net/peer'
import { useFreshEngine } from './helpers/engine'

useFreshEngine('page-viewer', { LOOM_RUNS_SESSION_SECRET: 'a-test-secret-that-is-at-least-32-characters' })

const stamped = (extra: Record<string, string> = {}) =>
  new Headers({
    host: '127.0.0.1:3000',
    [PEER_HEADER]: peerStamp({ address: '127.0.0.1', localPort: 3000, encrypted: false }),
    ...extra,
  })

before(async () => {
  process.env.LOOM_RUNS_USERS = `olga:viewer:${await hashPassword('olga-secret')}`
  resetConfig()
})

test('with users configured, a page request names its viewer only by credentials', async () => {
  // Loopback alone is no one when users are configured.
  assert.equal(await viewerOfHeaders(stamped()), null)
  assert.equal(await viewerOfHeaders(stamped({ cookie: '__Host-loom_runs_session=forged.value' })), null)
  assert.equal(
    await viewerOfHeaders(stamped({ authorization: `Basic ${Buffer.from('olga:wrong').toString('base64')}` })),
    null,
  )
  const olga = await viewerOfHeaders(
    stamped({ authorization: `Basic ${Buffer.from('olga:olga-secret').toString('base64')}` }),
  )
  assert.deepEqual(olga && { name: olga.name, role: olga.role }, { name: 'olga', role: 'viewer' })
})

/** Page modules (not API routes) under app/. */
function pageModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return p === path.join('app', 'api') ? [] : pageModules(p)
    return /\.(ts|tsx)$/.test(e.name) ? [p] : []
  })
}

test('every page module that reads data checks the viewer before its first read', () => {
  const readers = pageModules('app').filter((f) =>
    /from '@\/lib\/(queries|server\/read-cache)\//.test(fs.readFileSync(f, 'utf8')),
  )
  assert.ok(readers.length >= 3, `page modules that read data: ${readers.join(', ')}`)
  for (const file of readers) {
    const text = fs.readFileSync(file, 'utf8')
    const check = text.indexOf('await requirePageViewer()')
    assert.ok(check > 0, `${file} reads data without checking the viewer`)
    // Before any read the module starts: ensureReady() and the query calls come after the check.
    for (const read of ['ensureReady()', 'cachedRead(', 'getRunDetail(', 'setQueryData(']) {
      const at = text.indexOf(read, text.indexOf('export'))
      if (at >= 0) assert.ok(check < at, `${file}: ${read} comes before the viewer check`)
    }
  }
})
