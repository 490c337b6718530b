import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Points this test process at a fresh embedded data directory. Must run before
 * anything reads the configuration (call it at the top of the test file).
 * node --test runs each file in its own process, so each file gets its own engine.
 */
export function useFreshEngine(name: string, extraEnv: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `loom-runs-${name}-`))
  process.env.LOOM_RUNS_DATA_DIR = dir
  process.env.LOOM_RUNS_DEMO = '0'
  delete process.env.CLICKHOUSE_URL
  Object.assign(process.env, extraEnv)
  return dir
}
