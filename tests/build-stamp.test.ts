import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
// @ts-expect-error -- a plain ES module script without type declarations
import { isBuildCurrent, sourceDigest, writeStamp } from '../scripts/build-stamp.mjs'

/** `npm start` builds only when there is no build or the sources changed since the last one. */
test('a build is current until a source changes; tests and other folders do not count', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-runs-build-stamp-'))
  fs.mkdirSync(path.join(root, 'lib'))
  fs.mkdirSync(path.join(root, 'app'))
  fs.writeFileSync(path.join(root, 'lib', 'a.ts'), 'export const a = 1\n')
  fs.writeFileSync(path.join(root, 'app', 'page.tsx'), 'export default function P() { return null }\n')
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  assert.equal(isBuildCurrent(root, '.next'), false, 'no build yet')
  fs.mkdirSync(path.join(root, '.next'))
  fs.writeFileSync(path.join(root, '.next', 'BUILD_ID'), 'x')
  assert.equal(isBuildCurrent(root, '.next'), false, 'a build without a stamp is not trusted')
  writeStamp(root, '.next', sourceDigest(root))
  assert.equal(isBuildCurrent(root, '.next'), true)
  fs.writeFileSync(path.join(root, 'lib', 'a.test.ts'), 'test\n')
  fs.mkdirSync(path.join(root, 'e2e'))
  fs.writeFileSync(path.join(root, 'e2e', 'x.spec.ts'), 'spec\n')
  assert.equal(isBuildCurrent(root, '.next'), true, 'tests and specs are not build inputs')
  fs.writeFileSync(path.join(root, 'lib', 'a.ts'), 'export const a = 2\n')
  assert.equal(isBuildCurrent(root, '.next'), false, 'an edited source')
  writeStamp(root, '.next', sourceDigest(root))
  fs.renameSync(path.join(root, 'lib', 'a.ts'), path.join(root, 'lib', 'b.ts'))
  assert.equal(isBuildCurrent(root, '.next'), false, 'a renamed source')
  fs.rmSync(root, { recursive: true, force: true })
})
