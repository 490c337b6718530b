import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { describeDiff, diffContents, diffJsonValues, parseIdList, unitsDone, type ContentDiff } from './index'

/** The seed's `" ".join(sorted(done))` after n items. */
function batchState(n: number, width = 3): string {
  return Array.from({ length: n }, (_, i) => `item-${String(i + 1).padStart(width, '0')}`)
    .sort()
    .join(' ')
}

function expectKind<K extends ContentDiff['kind']>(d: ContentDiff, kind: K): Extract<ContentDiff, { kind: K }> {
  assert.equal(d.kind, kind)
  return d as Extract<ContentDiff, { kind: K }>
}

/** The changes of a JSON diff between two texts, as [type, path] pairs. */
function jsonChanges(before: string, after: string): [string, string][] {
  return expectKind(diffContents(before, after), 'json').changes.map((c) => [c.type, c.path])
}

describe('parseIdList', () => {
  test('space-separated ids (the seed checkpoint)', () => {
    assert.deepEqual(parseIdList('item-001 item-002'), ['item-001', 'item-002'])
    assert.deepEqual(parseIdList('  item-1   item-2 '), ['item-1', 'item-2'])
    assert.deepEqual(parseIdList('item-001'), ['item-001'])
    assert.deepEqual(parseIdList('17 18 19'), ['17', '18', '19'])
    assert.deepEqual(parseIdList('doc.pdf report.txt'), ['doc.pdf', 'report.txt'])
  })

  test('comma-separated ids, with or without spaces', () => {
    assert.deepEqual(parseIdList('a,b,c'), ['a', 'b', 'c'])
    assert.deepEqual(parseIdList('a, b, c'), ['a', 'b', 'c'])
    assert.deepEqual(parseIdList('user-1 , user-2'), ['user-1', 'user-2'])
  })

  test('not id lists', () => {
    for (const text of [
      '',
      '   ',
      'hello world',
      'Done.',
      'the run is well-known',
      'item-1\nitem-2',
      'item-1\titem-2',
      '{"done": ["a"]}',
      '["a","b"]',
      '42',
      '3.5',
      'a,',
      'a b, c',
      "don't stop",
    ]) {
      assert.equal(parseIdList(text), null, JSON.stringify(text))
    }
  })
})

describe('diffContents: set', () => {
  test('the seed resume step: v120 → v121 adds item-121', () => {
    const d = expectKind(diffContents(batchState(120), batchState(121)), 'set')
    assert.equal(d.separator, ' ')
    assert.deepEqual(d.added, ['item-121'])
    assert.deepEqual(d.removed, [])
    assert.equal(d.kept, 120)
    assert.equal(d.beforeCount, 120)
    assert.equal(d.afterCount, 121)
    assert.equal(d.identical, false)
    assert.equal(describeDiff(d), 'added item-121')
  })

  test('comma lists keep their separator; added and removed are sorted', () => {
    const d = expectKind(diffContents('c,a,b', 'e,a,d'), 'set')
    assert.equal(d.separator, ',')
    assert.deepEqual(d.added, ['d', 'e'])
    assert.deepEqual(d.removed, ['b', 'c'])
    assert.equal(d.kept, 1)
    assert.equal(describeDiff(d), 'added 2 items, removed 2')
    assert.equal(expectKind(diffContents('a, b, c', 'a, b'), 'set').separator, ', ')
    assert.equal(describeDiff(diffContents('a, b, c', 'a, b')), 'removed c')
  })

  test('natural order: item-9 before item-10', () => {
    const d = expectKind(diffContents('item-1', 'item-1 item-10 item-9 item-100'), 'set')
    assert.deepEqual(d.added, ['item-9', 'item-10', 'item-100'])
    assert.equal(describeDiff(d), 'added 3 items')
  })

  test('"added 3 items, removed 1"', () => {
    assert.equal(describeDiff(diffContents('x-1 x-2 x-3', 'x-2 x-3 x-4 x-5 x-6')), 'added 3 items, removed 1')
    assert.equal(describeDiff(diffContents('x-1 x-2 x-3', 'x-2 x-4')), 'added 1 item, removed 2')
    assert.equal(describeDiff(diffContents('x-1 x-2', 'x-2 x-4')), 'added x-4, removed x-1')
  })

  test('an empty side is an empty set when the other side is a list', () => {
    const first = expectKind(diffContents('', 'item-1 item-2'), 'set')
    assert.deepEqual(first.added, ['item-1', 'item-2'])
    assert.equal(first.beforeCount, 0)
    assert.equal(first.kept, 0)
    const cleared = expectKind(diffContents(batchState(120), ''), 'set')
    assert.equal(cleared.removed.length, 120)
    assert.equal(cleared.afterCount, 0)
    assert.equal(describeDiff(cleared), 'removed 120 items')
    assert.equal(diffContents('', '').kind, 'text', 'two empty sides are not a list')
  })

  test('same set in another order or format is not "no change"', () => {
    assert.equal(describeDiff(diffContents('item-1 item-2', 'item-1 item-2')), 'no change')
    const d = expectKind(diffContents('item-2 item-1', 'item-1,item-2'), 'set')
    assert.equal(d.added.length + d.removed.length, 0)
    assert.equal(describeDiff(d), 'same 2 items, reformatted')
  })

  test('near the 4096-character limit: a 4089-character list diffs as a set', () => {
    const before = batchState(409, 4) // "item-0001" … 409 × 10 − 1 = 4089 chars
    assert.ok(before.length > 4000 && before.length <= 4096, String(before.length))
    const after = `${before} item-0410`
    assert.ok(after.length > 4096)
    const d = expectKind(diffContents(before, after), 'set')
    assert.deepEqual(d.added, ['item-0410'])
    assert.equal(d.kept, 409)
    assert.equal(unitsDone(before), 409)
  })
})

describe('diffContents: json', () => {
  test('object changes with paths and counts', () => {
    const d = expectKind(
      diffContents(
        '{"cursor":"a","done":[1,2],"gone":true,"meta":{"n":1}}',
        '{"cursor":"b","done":[1,2,3],"meta":{"n":1},"new":null}',
      ),
      'json',
    )
    assert.deepEqual(d.changes, [
      { path: '$.cursor', type: 'changed', before: 'a', after: 'b' },
      { path: '$.done[2]', type: 'added', after: 3 },
      { path: '$.gone', type: 'removed', before: true },
      { path: '$.new', type: 'added', after: null },
    ])
    assert.equal(d.added, 2)
    assert.equal(d.removed, 1)
    assert.equal(d.changed, 1)
    assert.equal(describeDiff(d), '4 changes: 1 changed, 2 added, 1 removed')
  })

  test('"changed $.cursor"', () => {
    assert.equal(
      describeDiff(diffContents('{"cursor": 10, "done": []}', '{"done": [], "cursor": 20}')),
      'changed $.cursor',
    )
  })

  test('an element replaced in place is a change inside it; nested paths; odd keys are quoted', () => {
    assert.deepEqual(jsonChanges('[{"id":1},{"id":2},{"id":3}]', '[{"id":1},{"id":5}]'), [
      ['changed', '$[1].id'],
      ['removed', '$[2]'],
    ])
    const odd = expectKind(diffContents('{"a b": 1, "x": {"y-z": [0]}}', '{"a b": 2, "x": {"y-z": [0, 1]}}'), 'json')
    assert.deepEqual(
      odd.changes.map((c) => c.path),
      ['$["a b"]', '$.x["y-z"][1]'],
    )
  })

  test('a type change is one change at that path', () => {
    assert.deepEqual(diffJsonValues({ a: [1] }, { a: { 0: 1 } }), [
      { path: '$.a', type: 'changed', before: [1], after: { 0: 1 } },
    ])
    assert.deepEqual(jsonChanges('[1]', '{"a":1}'), [['changed', '$']])
    assert.deepEqual(diffJsonValues({ a: 1 }, { a: '1' }), [{ path: '$.a', type: 'changed', before: 1, after: '1' }])
  })

  test('reformatting only vs identical', () => {
    const d = expectKind(diffContents('{"a":1}', '{\n  "a": 1\n}'), 'json')
    assert.equal(d.changes.length, 0)
    assert.equal(describeDiff(d), 'formatting only')
    assert.equal(describeDiff(diffContents('{"a":1}', '{"a":1}')), 'no change')
  })

  test('JSON on one side only is a text diff', () => {
    assert.equal(diffContents('{"a":1}', 'hello').kind, 'text')
    assert.equal(diffContents('', '{"a":1}').kind, 'text')
    assert.equal(diffContents('"a"', '"b"').kind, 'text', 'JSON scalars are not containers')
  })
})

describe('diffContents: JSON arrays are sequences', () => {
  const ids = (n: number, skip?: number) =>
    Array.from({ length: n + (skip ? 1 : 0) }, (_, i) => `doc-${String(i + 1).padStart(3, '0')}`).filter(
      (_, i) => i + 1 !== skip,
    )

  test('inserting one id into 300 is one insert, at its place', () => {
    const before = JSON.stringify({ cursor: 'p', done: ids(300, 57) })
    const after = JSON.stringify({ cursor: 'p', done: ids(301) })
    const d = expectKind(diffContents(before, after), 'json')
    assert.deepEqual(d.changes, [{ path: '$.done[56]', type: 'added', after: 'doc-057' }])
    assert.equal(describeDiff(d), 'added $.done[56]')
  })

  test('removing one id from the middle is one removal (its index in before)', () => {
    const d = expectKind(diffContents(JSON.stringify(ids(300)), JSON.stringify(ids(299, 10))), 'json')
    assert.deepEqual(d.changes, [{ path: '$[9]', type: 'removed', before: 'doc-010' }])
  })

  test('a move is one move', () => {
    const d = expectKind(diffContents('{"queue": ["a", "b", "c", "d"]}', '{"queue": ["b", "c", "d", "a"]}'), 'json')
    assert.deepEqual(d.changes, [{ path: '$.queue[3]', type: 'moved', from: '$.queue[0]', after: 'a' }])
    assert.equal(d.moved, 1)
    assert.equal(describeDiff(d), 'moved $.queue[0] → $.queue[3]')
  })

  test('objects inside arrays match whatever their key order; a replaced one is walked into', () => {
    assert.deepEqual(
      jsonChanges('[{"id":1,"n":"a"},{"id":2,"n":"b"}]', '[{"id":0},{"n":"a","id":1},{"id":2,"n":"B"}]'),
      [
        ['added', '$[0]'],
        ['changed', '$[2].n'],
      ],
    )
  })

  test('several inserts into one array read as one sentence', () => {
    const before = JSON.stringify({ done: ids(300) })
    const after = JSON.stringify({ done: [...ids(300), 'doc-x', 'doc-y', 'doc-z'] })
    assert.equal(describeDiff(diffContents(before, after)), 'added 3 items to $.done')
    assert.equal(describeDiff(diffContents(after, before)), 'removed 3 items from $.done')
  })

  test('a mix of edits is counted by kind', () => {
    const d = expectKind(diffContents('{"a": [1, 2, 3, 4], "b": 1}', '{"a": [4, 1, 2, 3, 5], "b": 2}'), 'json')
    assert.equal(describeDiff(d), '3 changes: 1 changed, 1 added, 1 moved')
  })
})

describe('diffContents: text', () => {
  test('line diff with parts and counts', () => {
    const d = expectKind(diffContents('a\nb\nc', 'a\nx\nc\nd'), 'text')
    assert.equal(d.addedLines, 2)
    assert.equal(d.removedLines, 1)
    assert.deepEqual(
      d.parts.filter((p) => p.type !== 'same').flatMap((p) => p.lines.map((l) => `${p.type}:${l}`)),
      ['removed:b', 'added:x', 'added:d'],
    )
    assert.deepEqual(d.parts[0], { type: 'same', lines: ['a'] })
    assert.equal(describeDiff(d), '+2 −1 lines')
  })

  test('prose is text, not a set', () => {
    const d = expectKind(diffContents('hello world', 'hello there world'), 'text')
    assert.equal(describeDiff(d), '+1 −1 lines')
  })

  test('only a trailing newline differs', () => {
    const d = expectKind(diffContents('one\ntwo', 'one\ntwo\n'), 'text')
    assert.equal(d.addedLines + d.removedLines, 0)
    assert.equal(describeDiff(d), 'formatting only')
    assert.equal(describeDiff(diffContents('same\ntext', 'same\ntext')), 'no change')
  })

  test('word-level segments inside a changed line', () => {
    const d = expectKind(diffContents('the quick brown fox\njumps over', 'the quick red fox\njumps over'), 'text')
    const removed = d.parts.find((p) => p.type === 'removed')
    const added = d.parts.find((p) => p.type === 'added')
    assert.deepEqual(removed?.words, [
      [
        { text: 'the quick ', changed: false },
        { text: 'brown', changed: true },
        { text: ' fox', changed: false },
      ],
    ])
    assert.deepEqual(added?.words, [
      [
        { text: 'the quick ', changed: false },
        { text: 'red', changed: true },
        { text: ' fox', changed: false },
      ],
    ])
  })

  test('word segments stay aligned with lines across several changed lines', () => {
    const d = expectKind(
      diffContents('a\nstep 1 of 3\nphase one\nz', 'a\nstep 2 of 3\nphase two\nextra line\nz'),
      'text',
    )
    const added = d.parts.find((p) => p.type === 'added')!
    assert.equal(added.words?.length, added.lines.length)
    assert.deepEqual(
      added.words?.map((line) => line.filter((s) => s.changed).map((s) => s.text)),
      [['2'], ['two'], ['extra line']],
    )
    added.words?.forEach((line, i) => assert.equal(line.map((s) => s.text).join(''), added.lines[i]))
  })

  test('lines rewritten with nothing in common get no word highlighting', () => {
    const d = expectKind(diffContents('alpha beta', 'gamma delta'), 'text')
    assert.equal(d.parts.find((p) => p.type === 'added')?.words, undefined)
  })

  test('CRLF lines are shown without the CR', () => {
    const d = expectKind(diffContents('a\r\nb\r\n', 'a\r\nc\r\n'), 'text')
    assert.deepEqual(
      d.parts.map((p) => [p.type, p.lines]),
      [
        ['same', ['a']],
        ['removed', ['b']],
        ['added', ['c']],
      ],
    )
  })
})

describe('unitsDone', () => {
  test('id lists count distinct ids', () => {
    assert.equal(unitsDone(batchState(120)), 120)
    assert.equal(unitsDone('a,b,c'), 3)
    assert.equal(unitsDone('item-1 item-1 item-2'), 2)
  })

  test('JSON arrays and array fields', () => {
    assert.equal(unitsDone('["a","b","c"]'), 3)
    assert.equal(unitsDone('[]'), 0)
    assert.equal(unitsDone('{"cursor": "x", "done": ["a", "b"]}'), 2)
    assert.equal(unitsDone('{"completed": [1]}'), 1)
    assert.equal(unitsDone('{"processed": [1, 2], "items": [1, 2, 3, 4]}'), 4, 'items comes before processed')
    assert.equal(unitsDone('{"processed": [1, 2]}'), 2)
  })

  test('nothing countable', () => {
    for (const text of ['', 'hello world', '42', '{"cursor": 5}', '{"done": 5}', '{"blob_key": "b-1"}', 'a\nb']) {
      assert.equal(unitsDone(text), null, JSON.stringify(text))
    }
  })
})

describe('every diff has a work budget', () => {
  const alternating = (c: string) => `${c}\n`.repeat(2047)
  test('two texts that share nothing give both sides whole and say so', () => {
    const d = diffContents(alternating('a'), alternating('b'))
    assert.equal(d.kind, 'text')
    if (d.kind !== 'text') return
    assert.equal(d.overBudget, true)
    assert.deepEqual(
      d.parts.map((p) => [p.type, p.lines.length]),
      [
        ['removed', 2047],
        ['added', 2047],
      ],
    )
    assert.equal(d.removedLines, 2047)
    assert.equal(d.addedLines, 2047)
    assert.match(describeDiff(d), /too different to compare line by line/)
  })
  test('a long text with one changed line is still compared line by line', () => {
    const before = Array.from({ length: 2047 }, (_, i) => `line ${i}`).join('\n')
    const d = diffContents(before, before.replace('line 1000', 'line X'))
    assert.equal(d.kind, 'text')
    if (d.kind !== 'text') return
    assert.equal(d.overBudget, undefined)
    assert.equal(d.addedLines, 1)
    assert.equal(d.removedLines, 1)
  })
})
