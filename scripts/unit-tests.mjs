// Runs every unit and integration test file (lib/ and tests/), three at a time: each file is its own
// process with its own embedded engine. Three keep two cores busy (97%, 240 s) where two left gaps
// while a file started its engine or waited on a child process (about 300 s). The slowest files start first so none is left running alone
// at the end. Extra arguments go to `node --test` (e.g. --test-reporter=tap).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** Files that take a minute or more: they start first. */
const SLOW_FIRST = [
  'tests/schema-map.test.ts',
  'tests/openapi.test.ts',
  'tests/run-index.test.ts',
  'tests/bench-harness.test.ts',
]

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : testFiles(p)
    return name.endsWith('.test.ts') ? [p] : []
  })
}

const all = [...testFiles('lib'), ...testFiles('tests')].map((f) => f.split(path.sep).join('/')).sort()
const files = [...SLOW_FIRST.filter((f) => all.includes(f)), ...all.filter((f) => !SLOW_FIRST.includes(f))]
const concurrency = process.env.LOOM_RUNS_TEST_CONCURRENCY ?? '3'
const args = [
  '--conditions=react-server',
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  ...process.argv.slice(2),
  ...files,
]
const result = spawnSync(process.execPath, args, { stdio: 'inherit' })
process.exit(result.status ?? 1)
