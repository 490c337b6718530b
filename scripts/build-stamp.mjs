// Whether the build in the dist folder was made from the sources as they are now: a digest of
// every file a build reads (paths and contents) is written beside the build after it succeeds.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** What a production build depends on, relative to the project root. */
export const BUILD_INPUTS = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
]
export const STAMP_FILE = 'loom-runs-build-stamp'

function walk(root, rel, out) {
  const abs = path.join(root, rel)
  let stat
  try {
    stat = fs.statSync(abs)
  } catch {
    return
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) walk(root, path.join(rel, name), out)
  } else if (stat.isFile() && !/\.test\.tsx?$/.test(rel)) {
    out.push(rel)
  }
}

/** A digest of the build inputs under `root` (test files excluded: they are not built). */
export function sourceDigest(root) {
  const files = []
  for (const input of BUILD_INPUTS) walk(root, input, files)
  const hash = createHash('sha256')
  for (const rel of files) {
    hash.update(rel.split(path.sep).join('/'))
    hash.update('\0')
    hash.update(fs.readFileSync(path.join(root, rel)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** True when `distDir` holds a finished build stamped with today's digest. */
export function isBuildCurrent(root, distDir) {
  const dist = path.resolve(root, distDir)
  if (!fs.existsSync(path.join(dist, 'BUILD_ID'))) return false
  try {
    return fs.readFileSync(path.join(dist, STAMP_FILE), 'utf8').trim() === sourceDigest(root)
  } catch {
    return false
  }
}

export function writeStamp(root, distDir, digest) {
  fs.writeFileSync(path.join(path.resolve(root, distDir), STAMP_FILE), `${digest}\n`)
}
