// The self-contained server that `next build` leaves in <distDir>/standalone carries its own
// server.js and the node_modules it needs, but not the static assets: Next expects them copied
// next to it. `node scripts/standalone.mjs <dir>` writes a complete copy to <dir>, which then
// runs anywhere with `node <dir>/server.js` (no source tree, no npm install).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The build folder, as next.config.mjs chooses it. */
export function distName() {
  return process.env.NEXT_DIST_DIR || '.next'
}

export function standaloneDir() {
  return path.join(ROOT, distName(), 'standalone')
}

/**
 * Makes `target` a runnable copy of the standalone server (or, when `target` is the build's own
 * standalone folder, completes it in place) and returns the path of its server.js.
 */
export function assembleStandalone(target = standaloneDir()) {
  const source = standaloneDir()
  const dist = distName()
  if (!fs.existsSync(path.join(source, 'server.js'))) {
    throw new Error(
      `${path.join(dist, 'standalone', 'server.js')} is missing: run \`npm run build\` first (next.config.mjs sets output: 'standalone').`,
    )
  }
  const dest = path.resolve(target)
  if (dest !== source) {
    fs.rmSync(dest, { recursive: true, force: true })
    fs.cpSync(source, dest, { recursive: true, verbatimSymlinks: true })
  }
  // Copied over, never removed first: `npm start` completes the folder a running server may use.
  fs.cpSync(path.join(ROOT, dist, 'static'), path.join(dest, dist, 'static'), { recursive: true })
  const pub = path.join(ROOT, 'public')
  if (fs.existsSync(pub)) fs.cpSync(pub, path.join(dest, 'public'), { recursive: true })
  return path.join(dest, 'server.js')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2]
  if (!target) {
    console.error('usage: node scripts/standalone.mjs <directory>   (after npm run build; NEXT_DIST_DIR is honoured)')
    process.exit(2)
  }
  try {
    const server = assembleStandalone(target)
    console.log(
      `standalone server written to ${path.dirname(server)}\nrun it with: LOOM_RUNS_DATA_DIR=/absolute/data/dir HOSTNAME=127.0.0.1 PORT=3000 node ${server}`,
    )
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  }
}
