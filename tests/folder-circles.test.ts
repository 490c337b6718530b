/**
 * Folders of lib/ that import each other. The goal is none: types flow down from where they are
 * defined. Until then this holds the line: a new pair fails, and so does a pair that is gone but
 * still listed (take it off the list, so it cannot come back unnoticed).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const root = path.resolve(__dirname, '..')
const lib = path.join(root, 'lib')

/** The pairs that still import each other (alphabetical within a pair and between pairs). */
const KNOWN = [
  'api<->queries',
  'api<->tables',
  'clickhouse<->loom',
  'config<->loom',
  'derived<->loom',
  'loom<->tables',
  'queries<->run-set',
  'schema<->tables',
]

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(p)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : []
  })
}

/** A file's folder under lib/ (a file directly in lib/ is its own folder, named without extension). */
function folderOf(file: string): string {
  const parts = path.relative(lib, file).split(path.sep)
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, '')
}

/** Every import, re-export and dynamic import of a file that lands in lib/, as the file it names. */
function libImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1])
  return specifiers.flatMap((s) => {
    if (s.startsWith('@/')) return [path.join(root, s.slice(2))]
    if (s.startsWith('.')) return [path.resolve(path.dirname(file), s)]
    return []
  }).filter((target) => target.startsWith(lib + path.sep))
}

function folderPairs(): string[] {
  const edges = new Set<string>()
  for (const file of sourceFiles(lib)) {
    const from = folderOf(file)
    for (const target of libImports(file)) {
      const to = folderOf(target)
      if (to !== from) edges.add(`${from}->${to}`)
    }
  }
  const pairs = new Set<string>()
  for (const edge of edges) {
    const [a, b] = edge.split('->')
    if (edges.has(`${b}->${a}`)) pairs.add([a, b].sort().join('<->'))
  }
  return [...pairs].sort()
}

test('the scan sees imports of every form', () => {
  const edges = libImports(path.join(lib, 'server', 'ready.ts')).map((t) => folderOf(t))
  // A dynamic import (the demo seed) and a static one (the configuration).
  assert.ok(edges.includes('demo'), edges.join(', '))
  assert.ok(edges.includes('config'), edges.join(', '))
})

test('no folders of lib/ import each other beyond the known pairs, and none of those is gone', () => {
  const pairs = folderPairs()
  const added = pairs.filter((p) => !KNOWN.includes(p))
  const gone = KNOWN.filter((p) => !pairs.includes(p))
  assert.deepEqual(added, [], `new folder circles: ${added.join(', ')} (types flow down from where they are defined)`)
  assert.deepEqual(gone, [], `circles no longer there: take ${gone.join(', ')} off KNOWN`)
})
