import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { hasConflictMarkers, mergeContents } from './merge-contents'

const j = (v: unknown) => JSON.stringify(v)
const parsed = (text: string) => JSON.parse(text) as unknown

describe('JSON: per path', () => {
  test('the two-tab case: their cursor and my processed both survive', () => {
    const base = j({ cursor: 'inv-0420', processed: 420, skipped: ['inv-0412'] })
    const theirs = j({ cursor: 'inv-0421', processed: 420, skipped: ['inv-0412'] })
    const mine = j({ cursor: 'inv-0420', processed: 421, skipped: ['inv-0412'] })
    const r = mergeContents(base, theirs, mine)
    assert.equal(r.kind, 'json')
    assert.deepEqual(r.conflicts, [])
    assert.equal(r.content, j({ cursor: 'inv-0421', processed: 421, skipped: ['inv-0412'] }))
  })

  test('nested objects: changes to different keys at any depth merge, added and removed keys included', () => {
    const base = j({ a: { x: 1, y: 2, deep: { p: true, q: 'keep' } }, c: 1, gone: 0 })
    const theirs = j({ a: { x: 5, y: 2, deep: { p: false, q: 'keep' } }, c: 1, gone: 0, t: 'new' })
    const mine = j({ a: { x: 1, y: 3, deep: { p: true, q: 'keep', r: [1] } }, c: 1 })
    const r = mergeContents(base, theirs, mine)
    assert.equal(r.unresolved, 0)
    assert.deepEqual(parsed(r.content), { a: { x: 5, y: 3, deep: { p: false, q: 'keep', r: [1] } }, c: 1, t: 'new' })
  })

  test('the same path changed differently is a conflict; theirs holds until a choice is made', () => {
    const base = j({ cursor: 'inv-0420', processed: 420, note: 'a' })
    const theirs = j({ cursor: 'inv-0421', processed: 420, note: 'b' })
    const mine = j({ cursor: 'inv-0425', processed: 425, note: 'a' })
    const r = mergeContents(base, theirs, mine)
    assert.equal(r.unresolved, 1)
    assert.deepEqual(
      r.conflicts.map((c) => [c.id, c.label, c.base, c.theirs, c.mine, c.resolution]),
      [['$.cursor', '$.cursor', '"inv-0420"', '"inv-0421"', '"inv-0425"', null]],
    )
    assert.deepEqual(parsed(r.content), { cursor: 'inv-0421', processed: 425, note: 'b' })
    const mineWins = mergeContents(base, theirs, mine, { choices: { '$.cursor': 'mine' } })
    assert.equal(mineWins.unresolved, 0)
    assert.equal(mineWins.conflicts[0].resolution, 'mine')
    assert.deepEqual(parsed(mineWins.content), { cursor: 'inv-0425', processed: 425, note: 'b' })
  })

  test('removed on one side and changed on the other is a conflict; keeping theirs removes it', () => {
    const base = j({ a: 1, b: { n: 1 } })
    const theirs = j({ a: 1 })
    const mine = j({ a: 2, b: { n: 2 } })
    const r = mergeContents(base, theirs, mine)
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.theirs, c.mine]),
      [['$.b', null, '{\n  "n": 2\n}']],
    )
    assert.deepEqual(parsed(mergeContents(base, theirs, mine, { choices: { '$.b': 'theirs' } }).content), { a: 2 })
    assert.deepEqual(parsed(mergeContents(base, theirs, mine, { choices: { '$.b': 'mine' } }).content), {
      a: 2,
      b: { n: 2 },
    })
  })

  test('both sides making the same change is no conflict; key order changes are no change', () => {
    const base = j({ a: 1, b: 2 })
    assert.deepEqual(parsed(mergeContents(base, j({ a: 3, b: 2 }), j({ b: 2, a: 3 })).content), { a: 3, b: 2 })
    const r = mergeContents(base, j({ a: 1, b: 5 }), j({ b: 2, a: 1, c: 0 }))
    assert.deepEqual(parsed(r.content), { a: 1, b: 5, c: 0 })
  })

  test('keeps pretty-printing and the trailing newline of the current version', () => {
    const base = '{\n    "a": 1,\n    "b": 1\n}\n'
    const theirs = '{\n    "a": 2,\n    "b": 1\n}\n'
    const mine = '{"a": 1, "b": 3}'
    assert.equal(mergeContents(base, theirs, mine).content, '{\n    "a": 2,\n    "b": 3\n}\n')
  })

  test('a key named __proto__ is merged as data', () => {
    const r = mergeContents(
      '{"__proto__": {"x": 1}, "a": 1}',
      '{"__proto__": {"x": 2}, "a": 1}',
      '{"__proto__": {"x": 1}, "a": 2}',
    )
    assert.equal(r.content, '{"__proto__":{"x":2},"a":2}')
    assert.equal(({} as Record<string, unknown>).x, undefined)
  })
})

describe('JSON arrays', () => {
  test('inserts on both sides at different places merge', () => {
    const r = mergeContents(j({ s: [1, 2, 3, 4] }), j({ s: [0, 1, 2, 3, 4] }), j({ s: [1, 2, 3, 4, 5] }))
    assert.deepEqual(parsed(r.content), { s: [0, 1, 2, 3, 4, 5] })
    assert.equal(r.unresolved, 0)
  })

  test('inserts on both sides at the same place keep theirs, then mine; the same insert lands once', () => {
    const base = j({ skipped: ['inv-0412'] })
    assert.deepEqual(
      parsed(
        mergeContents(
          base,
          j({ skipped: ['inv-0412', 'inv-0413'] }),
          j({ skipped: ['inv-0412', 'inv-0415', 'inv-0413'] }),
        ).content,
      ),
      {
        skipped: ['inv-0412', 'inv-0413', 'inv-0415'],
      },
    )
    assert.deepEqual(parsed(mergeContents(j([]), j(['a']), j(['b'])).content), ['a', 'b'])
  })

  test('an insert on one side and a removal elsewhere on the other merge as sequences', () => {
    const r = mergeContents(j(['a', 'b', 'c', 'd']), j(['a', 'c', 'd']), j(['a', 'b', 'c', 'x', 'd']))
    assert.deepEqual(parsed(r.content), ['a', 'c', 'x', 'd'])
  })

  test('overlapping replacements of a slice are one conflict; either side can be kept', () => {
    const base = j({ steps: ['fetch', 'parse', 'store'] })
    const theirs = j({ steps: ['fetch', 'validate', 'store'] })
    const mine = j({ steps: ['fetch', 'parse-fast', 'dedupe', 'store'] })
    const r = mergeContents(base, theirs, mine)
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.theirs, c.mine]),
      [['$.steps[1:2]', '[\n  "validate"\n]', '[\n  "parse-fast",\n  "dedupe"\n]']],
    )
    assert.deepEqual(parsed(r.content), { steps: ['fetch', 'validate', 'store'] })
    assert.deepEqual(parsed(mergeContents(base, theirs, mine, { choices: { '$.steps[1:2]': 'mine' } }).content), {
      steps: ['fetch', 'parse-fast', 'dedupe', 'store'],
    })
    // Edits next to each other do not overlap.
    assert.deepEqual(parsed(mergeContents(base, theirs, j({ steps: ['fetch', 'parse', 'store-v2'] })).content), {
      steps: ['fetch', 'validate', 'store-v2'],
    })
  })

  test('elements changed in place on both sides merge field by field', () => {
    const base = j({
      rows: [
        { a: 1, b: 1 },
        { a: 2, b: 2 },
      ],
    })
    const theirs = j({
      rows: [
        { a: 1, b: 1 },
        { a: 20, b: 2 },
      ],
    })
    const mine = j({
      rows: [
        { a: 1, b: 1 },
        { a: 2, b: 30 },
      ],
    })
    assert.deepEqual(parsed(mergeContents(base, theirs, mine).content), {
      rows: [
        { a: 1, b: 1 },
        { a: 20, b: 30 },
      ],
    })
  })

  test('arrays of objects with an id are matched by id: inserts on both sides, edits, a removal', () => {
    const base = j({
      items: [
        { id: 'a', n: 1 },
        { id: 'b', n: 1 },
        { id: 'c', n: 1 },
      ],
    })
    // Theirs: edits a, removes c, appends d.
    const theirs = j({
      items: [
        { id: 'a', n: 2 },
        { id: 'b', n: 1 },
        { id: 'd', n: 1 },
      ],
    })
    // Mine: inserts z first, edits b, inserts e after b.
    const mine = j({
      items: [
        { id: 'z', n: 0 },
        { id: 'a', n: 1 },
        { id: 'b', n: 5 },
        { id: 'e', n: 1 },
        { id: 'c', n: 1 },
      ],
    })
    const r = mergeContents(base, theirs, mine)
    assert.equal(r.unresolved, 0)
    assert.deepEqual(parsed(r.content), {
      items: [
        { id: 'z', n: 0 },
        { id: 'a', n: 2 },
        { id: 'b', n: 5 },
        { id: 'd', n: 1 },
        { id: 'e', n: 1 },
      ],
    })
    // Theirs reordered: their order stands, and mine's new element follows its neighbour, after theirs' new ones.
    const reordered = mergeContents(
      base,
      j({
        items: [
          { id: 'c', n: 1 },
          { id: 'x', n: 1 },
          { id: 'a', n: 1 },
          { id: 'b', n: 1 },
        ],
      }),
      j({
        items: [
          { id: 'a', n: 1 },
          { id: 'b', n: 1 },
          { id: 'c', n: 1 },
          { id: 'y', n: 1 },
        ],
      }),
    )
    assert.deepEqual(
      (parsed(reordered.content) as { items: { id: string }[] }).items.map((i) => i.id),
      ['c', 'x', 'y', 'a', 'b'],
    )
  })

  test('keyed arrays: an element removed on one side and edited on the other is a conflict named by its key', () => {
    const base = j([
      { name: 'x', v: 1 },
      { name: 'y', v: 1 },
    ])
    const theirs = j([{ name: 'x', v: 1 }])
    const mine = j([
      { name: 'x', v: 1 },
      { name: 'y', v: 2 },
    ])
    const r = mergeContents(base, theirs, mine)
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.theirs]),
      [['$[name="y"]', null]],
    )
    assert.deepEqual(parsed(mergeContents(base, theirs, mine, { choices: { '$[name="y"]': 'mine' } }).content), [
      { name: 'x', v: 1 },
      { name: 'y', v: 2 },
    ])
  })
})

describe('id lists: sets of added and removed ids', () => {
  test('the seed format: additions and removals of both sides, sorted as sorted() sorts', () => {
    const r = mergeContents(
      'item-001 item-002 item-003',
      'item-001 item-002 item-003 item-004',
      'item-001 item-003 item-010',
    )
    assert.equal(r.kind, 'ids')
    assert.deepEqual(r.conflicts, [])
    assert.equal(r.content, 'item-001 item-003 item-004 item-010')
  })

  test('comma lists keep their separator; the same id added or removed on both sides counts once', () => {
    assert.equal(mergeContents('a1, b2, c3', 'a1, c3, d4', 'a1, c3, d4, e5').content, 'a1, c3, d4, e5')
    assert.equal(mergeContents('a1,b2', 'a1,b2,c3', 'b2').content, 'b2,c3')
  })

  test('an unsorted list keeps theirs order and appends mine', () => {
    assert.equal(mergeContents('t-9 t-2', 't-9 t-2 t-5', 't-2 t-7').content, 't-2 t-5 t-7')
    assert.equal(mergeContents('t-9 t-2', 't-9 t-1 t-2', 't-9 t-2 t-0').content, 't-9 t-1 t-2 t-0')
  })
})

describe('text: per line hunk (diff3)', () => {
  const base = 'alpha\nbeta\ngamma\ndelta\n'

  test('changes to different lines merge', () => {
    const r = mergeContents(base, 'ALPHA\nbeta\ngamma\ndelta\n', 'alpha\nbeta\ngamma\nDELTA\nepsilon\n')
    assert.equal(r.kind, 'text')
    assert.equal(r.content, 'ALPHA\nbeta\ngamma\nDELTA\nepsilon\n')
  })

  test('the same lines changed differently are a conflict; markers for editing by hand', () => {
    const theirs = 'alpha\nBETA\ngamma\ndelta\n'
    const mine = 'alpha\nbeta-2\ngamma-2\ndelta\n'
    const r = mergeContents(base, theirs, mine)
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.base, c.theirs, c.mine]),
      [['lines 2–3', 'beta\ngamma', 'BETA\ngamma', 'beta-2\ngamma-2']],
    )
    assert.equal(r.content, theirs)
    const id = r.conflicts[0].id
    assert.equal(mergeContents(base, theirs, mine, { choices: { [id]: 'mine' } }).content, mine)
    const marked = mergeContents(base, theirs, mine, { markers: { mine: 'my edit', theirs: 'v25' } })
    assert.equal(marked.content, 'alpha\n<<<<<<< my edit\nbeta-2\ngamma-2\n=======\nBETA\ngamma\n>>>>>>> v25\ndelta\n')
    assert.ok(hasConflictMarkers(marked.content))
    assert.ok(!hasConflictMarkers(r.content))
  })

  test('both sides adding different lines at the same place is a conflict', () => {
    const r = mergeContents('a\n', 'a\nb\n', 'a\nc\n')
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.theirs, c.mine]),
      [['after line 1', 'b', 'c']],
    )
  })
})

describe('a cleared block', () => {
  test('theirs cleared it and mine edited it: one conflict over the whole content', () => {
    const r = mergeContents(j({ a: 1 }), '', j({ a: 2 }))
    assert.equal(r.kind, 'whole')
    assert.deepEqual(
      r.conflicts.map((c) => [c.label, c.theirs, c.mine]),
      [['whole content', null, '{"a":2}']],
    )
    assert.equal(r.content, '')
    assert.equal(mergeContents(j({ a: 1 }), '', j({ a: 2 }), { choices: { content: 'mine' } }).content, '{"a":2}')
  })

  test('mine unchanged from the base takes theirs as it is, a tombstone included', () => {
    assert.equal(mergeContents('x y-1', '', 'x y-1').content, '')
    assert.equal(mergeContents('x-1 y-1', 'x-1', 'x-1 y-1').content, 'x-1')
  })
})

describe('a work budget', () => {
  test('sides that share nothing with the base are one conflict over the whole text', () => {
    // Alternating lines: every line of each side differs from the base's, the worst case for a diff.
    const base = 'a\nb\n'.repeat(1500)
    const theirs = 'c\nd\n'.repeat(1500)
    const mine = 'e\nf\n'.repeat(1500)
    const r = mergeContents(base, theirs, mine)
    assert.equal(r.conflicts.length, 1)
    assert.equal(r.conflicts[0].theirs, theirs)
    assert.equal(r.conflicts[0].mine, mine)
    assert.equal(r.content, theirs)
    assert.equal(mergeContents(base, theirs, mine, { choices: { [r.conflicts[0].id]: 'mine' } }).content, mine)
  })

  test('past the budget a merge that would interleave thousands of edits is one conflict for the operator', () => {
    const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n')
    // Theirs changed the even lines, mine the odd ones: line by line they merge.
    const small = (n: number) =>
      [
        lines(n, (i) => `line ${i}`),
        lines(n, (i) => (i % 2 ? `line ${i}` : `theirs ${i}`)),
        lines(n, (i) => (i % 2 ? `mine ${i}` : `line ${i}`)),
      ] as const
    const [b1, t1, m1] = small(300)
    const merged = mergeContents(b1, t1, m1)
    assert.equal(merged.conflicts.length, 0)
    assert.equal(
      merged.content,
      lines(300, (i) => (i % 2 ? `mine ${i}` : `theirs ${i}`)),
    )
    // 3,000 edits a side is past the budget: each side is one edit of the whole text.
    const [b2, t2, m2] = small(3000)
    const whole = mergeContents(b2, t2, m2)
    assert.equal(whole.conflicts.length, 1)
    assert.equal(whole.conflicts[0].theirs, t2)
    assert.equal(whole.conflicts[0].mine, m2)
  })

  test('one side over the budget and the other unchanged takes the changed side whole', () => {
    const base = 'a\nb\n'.repeat(1500)
    const theirs = 'c\nd\n'.repeat(1500)
    const r = mergeContents(base, theirs, base)
    assert.equal(r.conflicts.length, 0)
    assert.equal(r.content, theirs)
  })
})
