/**
 * Folders of lib/ must not import each other, directly or around a loop of several folders: types
 * and helpers flow down from where they are defined. The test finds every loop in the folder graph
 * and names the imports that close it.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const root = path.resolve(__dirname, '..')
const lib = path.join(root, 'lib')

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
  return specifiers
    .flatMap((s) => {
      if (s.startsWith('@/')) return [path.join(root, s.slice(2))]
      if (s.startsWith('.')) return [path.resolve(path.dirname(file), s)]
      return []
    })
    .filter((target) => target.startsWith(lib + path.sep))
}

/** Folder -> folders it imports, with one file-level import behind each edge (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>()
  for (const file of sourceFiles(lib)) {
    const from = folderOf(file)
    for (const target of libImports(file)) {
      const to = folderOf(target)
      if (to === from) continue
      if (!graph.has(from)) graph.set(from, new Map())
      if (!graph.get(from)!.has(to))
        graph.get(from)!.set(to, `${path.relative(lib, file)} -> ${path.relative(lib, target)}`)
    }
  }
  return graph
}

/** Groups of folders that reach each other (strongly connected, more than one folder), each sorted. */
function folderLoops(graph: Map<string, Map<string, string>>): string[][] {
  const reach = (start: string) => {
    const seen = new Set<string>()
    const stack = [start]
    while (stack.length) {
      for (const next of graph.get(stack.pop()!)?.keys() ?? []) {
        if (seen.has(next)) continue
        seen.add(next)
        stack.push(next)
      }
    }
    return seen
  }
  const reached = new Map([...graph.keys()].map((f) => [f, reach(f)]))
  const loops = new Map<string, string[]>()
  for (const [f, seen] of reached) {
    const group = [f, ...[...seen].filter((g) => g !== f && reached.get(g)?.has(f))].sort()
    if (group.length > 1) loops.set(group.join(','), group)
  }
  return [...loops.values()]
}

test('the scan sees imports of every form', () => {
  const edges = libImports(path.join(lib, 'server', 'ready.ts')).map((t) => folderOf(t))
  // A dynamic import (the demo seed) and a static one (the configuration).
  assert.ok(edges.includes('demo'), edges.join(', '))
  assert.ok(edges.includes('config'), edges.join(', '))
})

test('the loop finder finds a loop of three folders and names its imports', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a/x.ts -> b/y.ts']])],
    ['b', new Map([['c', 'b/y.ts -> c/z.ts']])],
    [
      'c',
      new Map([
        ['a', 'c/z.ts -> a/x.ts'],
        ['d', 'c/z.ts -> d/w.ts'],
      ]),
    ],
  ])
  assert.deepEqual(folderLoops(graph), [['a', 'b', 'c']])
})

function describeLoop(graph: Map<string, Map<string, string>>, group: string[]): string {
  const edges = group.flatMap((f) => group.filter((g) => graph.get(f)?.has(g)).map((g) => `  ${graph.get(f)!.get(g)}`))
  return `${group.join(' <-> ')}:\n${edges.join('\n')}`
}

test('no two folders of lib/ import each other', () => {
  const graph = folderGraph()
  const pairs = [...graph].flatMap(([f, to]) =>
    [...to.keys()]
      .filter((g) => f < g && graph.get(g)?.has(f))
      .map((g) => `${to.get(g)}  and  ${graph.get(g)!.get(f)}`),
  )
  assert.deepEqual(
    pairs,
    [],
    `folders that import each other (types flow down from where they are defined):\n${pairs.join('\n')}`,
  )
})

test('no loops through several folders of lib/', () => {
  const graph = folderGraph()
  const loops = folderLoops(graph).map((g) => describeLoop(graph, g))
  assert.deepEqual(loops, [], `folder loops (types flow down from where they are defined):\n${loops.join('\n')}`)
})
