import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { childEnv, freePort, launch, stop, untilHealth, type Proc } from './processes'

/*
 * The deployable server: the build's standalone output, copied with its static files to a
 * folder outside the source tree (as the container image does), started the container way
 * (HOSTNAME=0.0.0.0, PORT) on a fresh embedded data directory. And `npm start`'s own launcher,
 * which runs the same server where HOST and PORT say.
 */

const ROOT = path.resolve(__dirname, '..')

function get(port: number, p: string, host = `127.0.0.1:${port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, headers: { host }, setHost: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

test.describe('standalone server outside the source tree', () => {
  let server: Proc | undefined
  let port = 0
  let appDir = ''
  let dataDir = ''

  test.beforeAll(async () => {
    test.setTimeout(240_000)
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-standalone-'))
    appDir = path.join(tmp, 'app')
    dataDir = path.join(tmp, 'data')
    const made = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'standalone.mjs'), appDir], {
      cwd: ROOT,
      encoding: 'utf8',
      env: childEnv({}),
    })
    expect(made.status, made.stderr).toBe(0)
    port = freePort()
    // Nothing points back at the source tree: no build-folder variable, its own folder and data.
    const env = childEnv({ HOSTNAME: '0.0.0.0', PORT: String(port), LOOM_RUNS_DATA_DIR: dataDir, LOOM_RUNS_DEMO: '1' })
    delete env.NEXT_DIST_DIR
    server = launch('standalone server.js', [path.join(appDir, 'server.js')], env)
    await untilHealth(server, 200_000, 200, () => get(port, '/api/health'))
  })

  test.afterAll(async () => {
    await stop(server)
    if (appDir) fs.rmSync(path.dirname(appDir), { recursive: true, force: true })
  })

  test('the copy is self-contained and listens where HOSTNAME and PORT say', async () => {
    expect(path.relative(ROOT, appDir).startsWith('..')).toBe(true)
    // The embedded engine's shared library travelled with the traced modules.
    expect(fs.existsSync(path.join(appDir, 'node_modules', '@chdb', 'lib-linux-x64-gnu', 'libchdb.so'))).toBe(true)
    expect(server!.log()).toContain(`0.0.0.0:${port}`)
    // The engine wrote into the data directory it was given, not beside the server.
    expect(fs.readdirSync(dataDir).length).toBeGreaterThan(0)
    expect(fs.existsSync(path.join(appDir, '.data'))).toBe(false)
  })

  test('health answers 200 on loopback with the embedded engine', async () => {
    const res = await get(port, '/api/health')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ mode: 'embedded' })
  })

  test('a page renders with its scripts and styles', async ({ page }) => {
    await page.route(/^(?!http:\/\/127\.0\.0\.1[:/]).*/, (r) => r.abort())
    const failed: string[] = []
    page.on('response', (r) => {
      if (r.url().includes('/_next/static/') && r.status() !== 200) failed.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(`http://127.0.0.1:${port}/`)
    const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr')
    await expect(rows.first()).toBeVisible({ timeout: 60_000 })
    // The client took over: the live-refresh control only works with the scripts loaded.
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible()
    expect(failed).toEqual([])
  })

  test("the container image's CMD and HEALTHCHECK work on this copy", async () => {
    // The image's runtime stage copies the same folder (made by the same command) to its WORKDIR.
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ')
    const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'))
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)![1]) as string[]
    expect(cmd[0]).toBe('node')
    expect(fs.existsSync(path.join(appDir, cmd[1]))).toBe(true)
    const check = JSON.parse(/^HEALTHCHECK .*? CMD (\[.*\])$/m.exec(runtime)![1]) as string[]
    expect(check[0]).toBe('node')
    const probe = (p: number) =>
      spawnSync(process.execPath, check.slice(1), { env: { ...process.env, PORT: String(p) }, timeout: 20_000 }).status
    expect(probe(port)).toBe(0)
    expect(probe(freePort())).toBe(1)
  })

  test('a Host the console does not answer to gets 421', async () => {
    for (const p of ['/api/health', '/', '/_next/static/chunks/none.js']) {
      const res = await get(port, p, `rebind.example:${port}`)
      expect(res.status, p).toBe(421)
    }
  })
})

test.describe('npm start launcher', () => {
  test('binds HOST (not a container HOSTNAME) and keeps relative data paths in the working directory', async () => {
    test.setTimeout(120_000)
    const port = freePort()
    // npm runs the launcher in the project folder; server.js then moves into its own folder.
    const relative = path.join('.data', `e2e-start-${port}`)
    const env = childEnv({ HOST: '127.0.0.1', HOSTNAME: '0.0.0.0', PORT: String(port), LOOM_RUNS_DATA_DIR: relative })
    let server: Proc | undefined
    try {
      server = launch('npm start launcher', [path.join(ROOT, 'scripts', 'start.mjs')], env)
      await untilHealth(server, 100_000, 200, () => get(port, '/api/health'))
      expect(server.log()).not.toContain('does not work with "output: standalone"')
      expect(server.log()).toContain(`127.0.0.1:${port}`)
      expect(server.log()).not.toContain(`0.0.0.0:${port}`)
      expect(fs.readdirSync(path.join(ROOT, relative)).length).toBeGreaterThan(0)
    } finally {
      await stop(server)
      fs.rmSync(path.join(ROOT, relative), { recursive: true, force: true })
    }
  })

  test('refuses to listen off loopback without users', async () => {
    const port = freePort()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-start-'))
    const server = launch(
      'npm start launcher',
      [path.join(ROOT, 'scripts', 'start.mjs')],
      childEnv({ HOST: '0.0.0.0', PORT: String(port), LOOM_RUNS_DATA_DIR: dataDir }),
    )
    try {
      const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))])
      expect(exit?.code).toBe(1)
      expect(server.log()).toContain('Refusing to listen on 0.0.0.0')
    } finally {
      await stop(server)
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
