import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { EDGE_CASE } from '../lib/demo/scenarios'
import { encodeSegment, links } from '../lib/links'

const runApi = `/api/runs/${[EDGE_CASE.org, EDGE_CASE.namespace, EDGE_CASE.agent, EDGE_CASE.runId].map(encodeSegment).join('/')}`

test('pages and API answers carry the security headers', async ({ request }) => {
  for (const url of ['/', '/api/runs?limit=1']) {
    const res = await request.get(url)
    const h = res.headers()
    expect(h['content-security-policy']).toContain("default-src 'self'")
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(h['x-content-type-options']).toBe('nosniff')
    expect(h['referrer-policy']).toBe('same-origin')
    expect(h['x-frame-options']).toBe('DENY')
  }
})

test('a cross-origin write is refused with 403', async ({ request }) => {
  const res = await request.put(`${runApi}/blocks/checkpoint`, {
    headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
    data: { content: 'x', expectedVersion: '1', reason: 'csrf' },
  })
  expect(res.status()).toBe(403)
})

test('checkpoint content and reasons with HTML or script render as text, never run', async ({ page, request }) => {
  const payload = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">`
  const blocks = await (await request.get(`${runApi}/blocks`)).json()
  const cp = blocks.blocks.find((b: { blockKey: string }) => b.blockKey === 'checkpoint')
  const put = await request.put(`${runApi}/blocks/checkpoint`, {
    headers: { 'content-type': 'application/json' },
    data: { content: payload, expectedVersion: cp ? cp.version : '0', reason: `<b>reason</b>${payload}` },
  })
  expect(put.status()).toBe(200)
  let dialogs = 0
  page.on('dialog', (d) => {
    dialogs++
    void d.dismiss()
  })
  for (const tab of [undefined, 'blocks']) {
    await page.goto(links.run(EDGE_CASE, tab ? { tab } : undefined))
    await expect(page.getByText(payload).first()).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
  }
  expect(dialogs).toBe(0)
})

test('no configured secret reaches the client bundles', async () => {
  const sentinel = process.env.CLICKHOUSE_PASSWORD
  const dir = path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'static')
  const files: string[] = []
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(js|css|html|json)$/.test(e.name)) files.push(p)
    }
  }
  walk(dir)
  expect(files.length).toBeGreaterThan(5)
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8')
    if (sentinel) expect(text.includes(sentinel), `${f} contains the ClickHouse password`).toBe(false)
    expect(text.includes('LOOM_RUNS_SESSION_SECRET'), `${f} names the session secret`).toBe(false)
    expect(/scrypt\$[A-Za-z0-9+/=]{16,}\$/.test(text), `${f} contains a password hash`).toBe(false)
  }
})
