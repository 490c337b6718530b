import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { hashPassword } from '../lib/auth/passwords'
import { CONFIG_VARIABLES, parseConfig } from '../lib/config'

/*
 * The container files cannot be run here (no container engine), so they are held to the
 * project: every script they call exists, every variable they set is one the console reads,
 * and the console's environment from compose.yaml is a valid configuration.
 */

const ROOT = path.resolve(__dirname, '..')
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8')
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>
  engines: { node: string }
  allowScripts?: Record<string, boolean>
}
const compose = read('compose.yaml')
const dockerfile = read('Dockerfile')

/** `services.<name>.environment` of compose.yaml (map form, two-space indents). */
function composeEnvironment(service: string): Record<string, string> {
  const lines = compose.split('\n')
  const start = lines.indexOf(`  ${service}:`)
  assert.ok(start >= 0, `compose.yaml has no service ${service}`)
  const env: Record<string, string> = {}
  let inEnv = false
  for (const line of lines.slice(start + 1)) {
    if (/^ {0,2}\S/.test(line)) break
    if (/^ {4}\S/.test(line)) inEnv = line.trim() === 'environment:'
    const m = inEnv ? /^ {6}([A-Z][A-Z0-9_]*): (.*)$/.exec(line) : null
    if (m) env[m[1]] = m[2].replace(/^"(.*)"$/, '$1')
  }
  return env
}

/** Compose's interpolation of `${NAME:-default}` and `${NAME:?message}` (the only forms used). */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const v = vars[name]
    if (v) return v
    if (op === '?') throw new Error(`${name}: ${arg}`)
    return op === '-' ? (arg ?? '') : ''
  })
}

/** Instructions of one stage of the Dockerfile, continuation lines joined. */
function stage(name: string): string[] {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ')
  const lines = joined.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))
  const from = lines.findIndex((l) => new RegExp(`^FROM .+ AS ${name}$`).test(l))
  assert.ok(from >= 0, `Dockerfile has no stage ${name}`)
  const rest = lines.slice(from + 1)
  const end = rest.findIndex((l) => l.startsWith('FROM '))
  return end < 0 ? rest : rest.slice(0, end)
}

test('every npm script compose.yaml and the Dockerfile run exists in package.json', () => {
  const called = [...`${compose}\n${dockerfile}`.matchAll(/(?:npm run |"npm", "run", ")([\w:-]+)/g)].map((m) => m[1])
  assert.ok(called.includes('db:init'), 'the init one-shot runs npm run db:init')
  for (const name of called) assert.ok(pkg.scripts[name], `package.json has no script ${name}`)
  for (const file of [...dockerfile.matchAll(/node (scripts\/[\w./-]+)/g)].map((m) => m[1])) {
    assert.ok(fs.existsSync(path.join(ROOT, file)), `${file} is missing`)
  }
})

test('every variable compose.yaml gives the console and its init is one the console reads', () => {
  for (const service of ['init', 'console']) {
    const names = Object.keys(composeEnvironment(service))
    assert.ok(names.length > 0)
    for (const name of names)
      assert.ok(CONFIG_VARIABLES.includes(name), `${service}: ${name} is not read by lib/config.ts`)
  }
  for (const line of stage('runtime').filter((l) => l.startsWith('ENV '))) {
    for (const [, name] of line.matchAll(/([A-Z][A-Z0-9_]*)=/g)) {
      assert.ok(
        CONFIG_VARIABLES.includes(name) || ['NODE_ENV', 'NEXT_TELEMETRY_DISABLED', 'HOSTNAME'].includes(name),
        `Dockerfile ENV ${name} is read by nothing`,
      )
    }
  }
})

test("compose's console environment is a valid remote configuration with a viewer and an operator", async () => {
  const env = composeEnvironment('console')
  const secrets = {
    CLICKHOUSE_PASSWORD: 'placeholder-password',
    LOOM_RUNS_USERS: `reader:viewer:${await hashPassword('reader password')},alice:operator:${await hashPassword('operator password')}`,
    LOOM_RUNS_SESSION_SECRET: 'x'.repeat(64),
  }
  const config = parseConfig(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(v, secrets)])))
  assert.equal(config.mode, 'remote')
  assert.equal(new URL(config.clickhouse.url!).host, 'clickhouse:8123')
  assert.deepEqual(
    config.users.map((u) => u.role),
    ['viewer', 'operator'],
  )
  assert.equal(config.trustedProxies, 0)
  // Without its secrets compose refuses to start the console instead of running it open.
  for (const missing of Object.keys(secrets)) {
    const partial: Record<string, string> = { ...secrets }
    delete partial[missing]
    assert.throws(() => Object.values(env).map((v) => interpolate(v, partial)), new RegExp(missing))
  }
})

test('no secret is written into compose.yaml or the Dockerfile', () => {
  assert.doesNotMatch(`${compose}\n${dockerfile}`, /scrypt\$\d/)
  for (const service of ['clickhouse', 'init', 'console']) {
    const env = composeEnvironment(service)
    for (const [name, value] of Object.entries(env)) {
      if (/PASSWORD|SECRET|USERS/.test(name))
        assert.match(value, /^\$\{[A-Z_]+:\?/, `${service}: ${name} must come from the environment`)
    }
  }
})

test('the runtime image: standalone server only, non-root, health checked, data in a volume', () => {
  const runtime = stage('runtime')
  const copies = runtime.filter((l) => l.startsWith('COPY '))
  assert.deepEqual(
    copies.map((l) => l.replace(/--chown=\S+ /, '')),
    ['COPY --from=build /standalone ./'],
  )
  assert.ok(stage('build').some((l) => l.includes('node scripts/standalone.mjs /standalone')))
  assert.ok(!runtime.some((l) => /npm (ci|install)/.test(l)), 'the runtime stage installs nothing')
  const user = runtime.filter((l) => l.startsWith('USER ')).at(-1)
  assert.ok(user && !/^USER (root|0)(:|$)/.test(user), 'the server does not run as root')
  assert.equal(runtime.at(-1), 'CMD ["node", "server.js"]')
  const health = runtime.find((l) => l.startsWith('HEALTHCHECK '))
  assert.ok(health?.includes("path:'/api/health'"))
  const dataDir = /LOOM_RUNS_DATA_DIR=(\S+)/.exec(runtime.join(' '))?.[1]
  assert.ok(dataDir, 'the runtime sets an absolute LOOM_RUNS_DATA_DIR')
  const volume = runtime.find((l) => l.startsWith('VOLUME '))
  const volumes = JSON.parse(volume!.slice('VOLUME '.length)) as string[]
  assert.ok(
    volumes.some((v) => dataDir === v || dataDir.startsWith(`${v}/`)),
    `${dataDir} is inside a volume`,
  )
  assert.ok(
    !/COPY[^\n]*\.data/.test(dockerfile) && read('.dockerignore').split('\n').includes('.data'),
    'no embedded data goes into the image',
  )
})

test('the Node version: .nvmrc, engines, the images and install scripts agree', () => {
  const nvm = read('.nvmrc').trim()
  assert.match(pkg.engines.node, new RegExp(`^\\^${nvm}\\.`))
  for (const [, major] of dockerfile.matchAll(/^FROM node:(\d+)/gm)) assert.equal(major, nvm)
  // Every dependency with an install script is explicitly allowed or denied (npm warns otherwise).
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> }
  const withScripts = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([k]) => k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length))
  assert.ok(withScripts.length > 0)
  for (const name of withScripts)
    assert.equal(typeof pkg.allowScripts?.[name], 'boolean', `allowScripts has no entry for ${name}`)
})

test('the console and its init run with no capability, no new privileges and a read-only root filesystem', () => {
  for (const service of ['init', 'console']) {
    const block = compose.slice(compose.indexOf(`\n  ${service}:\n`) + 1).split(/\n  [a-z]+:\n/)[0]
    assert.match(block, /\n    read_only: true\n/, service)
    assert.match(block, /\n    cap_drop: \[ALL\]\n/, service)
    assert.match(block, /\n    security_opt: \["no-new-privileges:true"\]\n/, service)
    assert.match(block, /\n    tmpfs: \[\/tmp/, service)
  }
})

test('the image installs exactly the lockfile: npm ci accepts it, and every optional dependency has its entry', () => {
  assert.ok(stage('build').includes('RUN npm ci --no-audit --no-fund'), 'the build stage installs with npm ci')
  assert.ok(!dockerfile.includes('npm install'), 'no stage installs with npm install')
  // npm ci refuses a lockfile that lacks an entry for any dependency, optional ones for other platforms included.
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string>; version?: string }>
  }
  for (const [key, p] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(p.optionalDependencies ?? {})) {
      const entry =
        lock.packages[`${key ? `${key}/` : ''}node_modules/${name}`] ?? lock.packages[`node_modules/${name}`]
      assert.ok(entry, `${key || 'the project'}: the lockfile has no entry for its optional ${name}`)
      if (/^\d/.test(version)) assert.equal(entry.version, version, name)
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-npm-ci-'))
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f))
  const ci = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  })
  fs.rmSync(dir, { recursive: true, force: true })
  assert.equal(
    ci.status,
    0,
    ci.stderr
      .split('\n')
      .filter((l) => /Missing|in sync|ERR/i.test(l))
      .join('\n'),
  )
})
