import { spawnSync } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { EDGE_CASE } from '../lib/demo/scenarios'
import { encodeSegment, links } from '../lib/links'
import { childEnv, launch, ownServer, untilHealth } from './processes'

/*
 * Who may reach the console: a request naming another host (DNS rebinding) is refused before
 * anything runs, and with no users configured only loopback clients are served, even by a
 * server bound to every interface. Traffic stays on this machine: loopback, plus a network
 * namespace this spec makes itself (root only) to be a client that is not on loopback.
 */

const ROOT = path.resolve(__dirname, '..')
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next')
const PORT = Number(process.env.E2E_PORT ?? 3210)
const runApi = `/api/runs/${[EDGE_CASE.org, EDGE_CASE.namespace, EDGE_CASE.agent, EDGE_CASE.runId].map(encodeSegment).join('/')}`

type Answer = { status: number; body: string }

/** One raw HTTP request with exactly the headers given (Host included). */
function raw(opts: {
  port?: number
  address?: string
  method?: string
  path: string
  headers: Record<string, string>
  body?: string
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: opts.address ?? '127.0.0.1',
        port: opts.port ?? PORT,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        setHost: false,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

async function checkpointVersion(): Promise<string> {
  const res = await raw({ path: `${runApi}/blocks`, headers: { host: `127.0.0.1:${PORT}` } })
  expect(res.status).toBe(200)
  const cp = (JSON.parse(res.body).blocks as { blockKey: string; version: string }[]).find(
    (b) => b.blockKey === 'checkpoint',
  )
  return cp?.version ?? '0'
}

test.describe('DNS rebinding', () => {
  const rebound = `rebind.example:${PORT}`

  test('a page, a read route, a static file and an unknown path under a foreign Host are refused', async () => {
    for (const p of [
      '/',
      links.run(EDGE_CASE),
      '/api/runs?limit=1',
      `${runApi}/blocks`,
      '/_next/static/chunks/none.js',
      '/no-such-page',
    ]) {
      const res = await raw({ path: p, headers: { host: rebound } })
      expect(res.status, p).toBe(421)
      expect(res.body, p).not.toContain(EDGE_CASE.runId)
    }
  })

  test('a write under a foreign Host (with a matching Origin) is refused and writes nothing', async () => {
    const before = await checkpointVersion()
    const body = JSON.stringify({ content: 'rebound write', expectedVersion: before, reason: 'rebinding', force: true })
    const res = await raw({
      method: 'PUT',
      path: `${runApi}/blocks/checkpoint`,
      headers: {
        host: rebound,
        origin: `http://${rebound}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    })
    expect(res.status).toBe(421)
    // The Origin is compared with the allowed hosts, not with the request's Host.
    const crossOrigin = await raw({
      method: 'PUT',
      path: `${runApi}/blocks/checkpoint`,
      headers: {
        host: `127.0.0.1:${PORT}`,
        origin: `http://${rebound}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    })
    expect(crossOrigin.status).toBe(403)
    expect(await checkpointVersion()).toBe(before)
  })

  test('the loopback names on the console port still work', async () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`]) {
      const res = await raw({ path: '/api/runs?limit=1', headers: { host } })
      expect(res.status, host).toBe(200)
      expect(JSON.parse(res.body).runs).toHaveLength(1)
    }
  })
})

test.describe('no users: loopback clients only, however the server was started', () => {
  const own = ownServer('loom-runs-e2e-bind-all-', 180_000, async (s) => {
    // A plain `next start` bound to every interface, no HOST variable, no users.
    s.server = launch(
      'next start -H 0.0.0.0',
      [NEXT_BIN, 'start', '-H', '0.0.0.0', '-p', String(s.port)],
      childEnv({ LOOM_RUNS_DATA_DIR: s.dataDir }),
    )
    await untilHealth(s.server, 150_000, 200, () =>
      raw({ port: s.port, path: '/api/health', headers: { host: `127.0.0.1:${s.port}` } }),
    )
  })

  test('a loopback client is served; one that came through a proxy or tunnel (a forwarding header) is refused', async () => {
    const { port } = own
    const res = await raw({ port, path: '/api/auth/me', headers: { host: `127.0.0.1:${port}` } })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body).user).toEqual({ name: 'local', role: 'operator' })
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const forwarded = await raw({
        port,
        path: '/api/auth/me',
        headers: { host: `127.0.0.1:${port}`, [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' },
      })
      expect(forwarded.status, header).toBe(403)
      expect(JSON.parse(forwarded.body).error.message).toMatch(/proxy or tunnel needs users/)
    }
  })

  test('a client in another network namespace is refused with 403, pages and API alike', async () => {
    const { port } = own
    const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' })
    test.skip(process.getuid?.() !== 0 || ip.status !== 0, 'needs root and iproute2 to make a client off loopback')
    const ns = `loomrn${process.pid % 100000}`
    const hostIf = `lrh${process.pid % 100000}`
    const nsIf = `lrn${process.pid % 100000}`
    const sh = (args: string[]) => {
      const r = spawnSync('ip', args, { encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr}`)
    }
    const cleanup = () => {
      spawnSync('ip', ['netns', 'del', ns])
      spawnSync('ip', ['link', 'del', hostIf])
    }
    cleanup()
    try {
      sh(['netns', 'add', ns])
      sh(['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf])
      sh(['link', 'set', nsIf, 'netns', ns])
      sh(['addr', 'add', '10.231.7.1/30', 'dev', hostIf])
      sh(['link', 'set', hostIf, 'up'])
      sh(['netns', 'exec', ns, 'ip', 'addr', 'add', '10.231.7.2/30', 'dev', nsIf])
      sh(['netns', 'exec', ns, 'ip', 'link', 'set', nsIf, 'up'])
      const probe = (p: string) => {
        const script = `require('http').get({host:'10.231.7.1',port:${port},path:${JSON.stringify(p)},headers:{host:'127.0.0.1:${port}'}},r=>{let b='';r.on('data',d=>b+=d);r.on('end',()=>console.log(r.statusCode+' '+b.slice(0,200)))}).on('error',e=>console.log('ERR '+e.code))`
        const r = spawnSync('ip', ['netns', 'exec', ns, process.execPath, '-e', script], {
          encoding: 'utf8',
          timeout: 20_000,
        })
        return r.stdout.trim()
      }
      for (const p of ['/api/health', '/api/runs?limit=1', '/']) {
        const out = probe(p)
        expect(out, p).toMatch(/^403 /)
        expect(out, p).toContain('loopback clients only')
      }
    } finally {
      cleanup()
    }
  })
})
