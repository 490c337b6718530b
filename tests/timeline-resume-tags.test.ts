import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { resumeLabel, resumeTag, resumeTags } from '../components/story/timeline-model'
import { checkpointEvent } from './helpers/timeline-events'
import { resumePoint as point } from '../lib/resume/resume-test-rows'
import type { ResumePoint } from '../lib/resume/types'

/** A newer checkpoint under another session of `agent`/`userId` that the resume could not see. */
const missedUnder = (agent: string, userId: string, sessionId: string, version: number, unitsRedone: number | null) =>
  ({
    agent,
    userId,
    sessionId,
    version: String(version),
    updatedAt: '',
    unitsDone: version,
    unitsRedone,
    under: `session ${sessionId}`,
  }) satisfies ResumePoint['missed']

const write = checkpointEvent

describe('timeline resume entries', () => {
  test('a resume that could not see a newer checkpoint elsewhere says so, in the list and on the chart', () => {
    const missed = missedUnder('report-writer', 'u-7', 's1', 40, 40)
    const p = point({
      attempt: 2,
      firstWrite: { version: '1', at: '2026-11-20T11:14:04.000Z', summary: 'added item-001' },
      missed,
    })
    assert.equal(resumeTag(p), 'resume · from nothing; v40 under session s1 existed: 40 items redone')
    assert.equal(resumeLabel(p), 'resume · attempt 2 from nothing; v40 under session s1 existed')
    const tags = resumeTags([write('1', '2026-11-20T11:14:04.000Z')], [p])
    assert.equal(tags.get('checkpoint-1'), 'resume · from nothing; v40 under session s1 existed: 40 items redone')
  })

  test('a process that has begun and written nothing yet: its run.begin names the checkpoint it cannot see', () => {
    const missed = missedUnder('digest-writer', 'u-9', 'b1', 6, null)
    const p = point({ attempt: 2, firstWrite: null, toTrace: null, actor: null, missed })
    const begin = {
      ...write('1', '2026-11-23T09:08:55.400Z'),
      id: 'begin-2',
      kind: 'run.begin' as const,
      label: 'run.begin (attempt 2: a resumed process)',
      blockKey: '',
    }
    const tags = resumeTags([begin], [p])
    assert.equal(
      tags.get('begin-2'),
      'resume · attempt 2 from nothing; v6 under session b1 existed (6 items done there); no checkpoint written yet',
    )
    // Without a missed checkpoint the begin keeps its plain tag.
    assert.equal(
      resumeTags([begin], [point({ attempt: 2, firstWrite: null, missed: null })]).get('begin-2'),
      'resume · attempt 2 from nothing; no checkpoint written yet',
    )
  })

  test("an operator's write is tagged as the edit, clear or restore it was, not as a resume", () => {
    const fw = (v: string) => ({ version: v, at: '2026-11-23T08:26:58.171Z', summary: '' })
    assert.equal(
      resumeTag(point({ reasons: ['operator-edit'], fromVersion: '11', firstWrite: fw('12') })),
      'operator edit · v11 → v12',
    )
    assert.equal(
      resumeTag(point({ reasons: ['operator-clear'], fromVersion: '5', firstWrite: fw('6') })),
      'operator clear · tombstone v6',
    )
    assert.equal(
      resumeTag(point({ reasons: ['operator-restore'], fromVersion: '5', restoredFrom: '3', firstWrite: fw('6') })),
      'operator restore · v3 as v6',
    )
    assert.equal(resumeLabel(point({ reasons: ['operator-restore'], restoredFrom: '3' })), 'operator restore of v3')
  })
})
