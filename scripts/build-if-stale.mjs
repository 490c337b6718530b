// `npm start` runs this first: it builds only when there is no build yet or the sources changed
// since the last one, so starting again is quick and never serves a stale build.
import { spawnSync } from 'node:child_process'
import { isBuildCurrent, sourceDigest, writeStamp } from './build-stamp.mjs'
import { ROOT, distName } from './standalone.mjs'

const dist = distName()
if (isBuildCurrent(ROOT, dist)) {
  console.log(`[loom-runs] ${dist} is current with the sources: not building again`)
} else {
  const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
  // Taken after the build: `next build` may itself rewrite tsconfig.json's include list.
  writeStamp(ROOT, dist, sourceDigest(ROOT))
}
