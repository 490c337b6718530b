import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { DEMO_RUNS, EDGE_CASE } from '../lib/demo/scenarios'
import { encodeSegment, links } from '../lib/links'
import { runChanges } from '../lib/endpoints/runs'

const runApi = `/api/runs/${[EDGE_CASE.org, EDGE_CASE.namespace, EDGE_CASE.agent, EDGE_CASE.runId].map(encodeSegment).join('/')}`

test('pages and API answers carry the security headers; scripts need a fresh nonce, never unsafe-inline', async ({
  request,
}) => {
  const nonces = new Set<string>()
  for (const url of ['/', '/', '/api/runs?limit=1']) {
    const res = await request.get(url)
    const h = res.headers()
    const csp = h['content-security-policy'] ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    const scriptSrc =
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src')) ?? ''
    expect(scriptSrc).not.toContain("'unsafe-inline'")
    expect(scriptSrc).not.toContain("'unsafe-eval'")
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc)?.[1]
    expect(nonce, url).toBeTruthy()
    nonces.add(nonce!)
    if (url === '/') {
      // Every script of the page, Next's inline ones and the theme bootstrap included, carries it.
      const html = await res.text()
      const tags = html.match(/<script\b[^>]*>/g) ?? []
      expect(tags.length).toBeGreaterThan(2)
      for (const tag of tags) expect(tag, tag).toContain(`nonce="${nonce}"`)
    }
    expect(h['x-content-type-options']).toBe('nosniff')
    expect(h['referrer-policy']).toBe('same-origin')
    expect(h['x-frame-options']).toBe('DENY')
    expect(h['strict-transport-security'], 'no HSTS over plain HTTP').toBeUndefined()
  }
  expect(nonces.size, 'a new nonce per request').toBe(3)
})

test('under that policy the pages still work: charts, the resume diagram, the theme toggle; nothing is blocked', async ({
  page,
}) => {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text())
  })
  await page.goto('/')
  await expect(page.locator('svg.recharts-surface').first()).toBeVisible()
  const html = page.locator('html')
  const before = await html.getAttribute('data-theme')
  await page.getByRole('button', { name: /Switch to (light|dark) mode/ }).click()
  await expect(html).not.toHaveAttribute('data-theme', before ?? '')
  await page.goto(links.run(DEMO_RUNS.batch))
  await expect(page.getByRole('figure', { name: 'Resume flow diagram' }).locator('svg').first()).toBeVisible()
  expect(violations).toEqual([])
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

/** Every file served under /_next/static (scripts, styles, manifests). */
function clientFiles(): string[] {
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
  return files
}

test('no configured secret reaches the client bundles', async () => {
  const sentinel = process.env.CLICKHOUSE_PASSWORD
  const files = clientFiles()
  expect(files.length).toBeGreaterThan(5)
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8')
    if (sentinel) expect(text.includes(sentinel), `${f} contains the ClickHouse password`).toBe(false)
    expect(text.includes('LOOM_RUNS_SESSION_SECRET'), `${f} names the session secret`).toBe(false)
    expect(/scrypt\$[A-Za-z0-9+/=]{16,}\$/.test(text), `${f} contains a password hash`).toBe(false)
  }
})

test("the API's schemas stay on the server: no response description or input message is in the browser's scripts", async () => {
  // One of each: a response field's description, an input check's message.
  const described = runChanges.shape.since.description
  expect(described).toBeTruthy()
  const message = 'query has a parameter this route does not take'
  const files = clientFiles().filter((f) => f.endsWith('.js'))
  expect(files.length).toBeGreaterThan(5)
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8')
    expect(text.includes(described!), `${f} carries the response schemas`).toBe(false)
    expect(text.includes(message), `${f} carries the input schemas`).toBe(false)
  }
})
