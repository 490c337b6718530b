// `npm start`: runs the built standalone server in this process (so killing npm, which execs
// this script, stops it). Next's server.js listens on HOSTNAME and PORT and changes into its own
// folder first, so HOST is passed on as HOSTNAME and relative paths are fixed to this directory.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { ROOT, assembleStandalone, distName, standaloneDir } from './standalone.mjs'

const require = createRequire(import.meta.url)

// HOST/PORT are the console's variables; a container's own HOSTNAME must not decide the address.
process.env.HOST ||= '127.0.0.1'
process.env.HOSTNAME = process.env.HOST
process.env.PORT ||= '3000'
process.env.LOOM_RUNS_DATA_DIR ||= '.data/embedded'
for (const name of ['LOOM_RUNS_DATA_DIR', 'LOOM_RUNS_SCHEMA_MAP_FILE']) {
  const value = process.env[name]
  if (value) process.env[name] = path.resolve(value)
}

const hasStandalone = fs.existsSync(path.join(standaloneDir(), 'server.js'))
if (!hasStandalone && fs.existsSync(path.join(ROOT, distName(), 'BUILD_ID'))) {
  // A build from before the standalone output: serve it the old way until it is rebuilt.
  console.log(`[loom-runs] ${distName()} has no standalone output; serving it with next start (rebuild to change that)`)
  process.argv = [process.argv[0], 'next', 'start', '--hostname', process.env.HOST, '--port', process.env.PORT]
  require('next/dist/bin/next')
} else {
  let server
  try {
    server = assembleStandalone()
  } catch (err) {
    console.error(`[loom-runs] ${err instanceof Error ? err.message : err}`)
    process.exit(1)
  }
  require(server)
}
