/** Why a run resumed where it did: resume points, the segments between them, and each attempt. */
import { z } from 'zod'
import { identity, identityFields, iso, nullableIso, obj, version } from './parts'
import { OPERATOR_ACTIONS, RESUME_REASONS, SEGMENT_ENDS } from './vocabulary'

const resumeReason = z.enum(RESUME_REASONS)

/** A newer checkpoint the resume could not see, because it sat under another identity. */
export const missedCheckpoint = obj({
  ...identityFields,
  version,
  updatedAt: iso,
  unitsDone: z.number().nullable().describe('units done in that version (null when its content does not count units)'),
  unitsRedone: z
    .number()
    .nullable()
    .describe('units this identity did again after the resume that the missed version already had (null when unknown)'),
  under: z.string().describe('where it sat, as the parts that differ from the resuming identity: "session s1"'),
})
export type MissedCheckpoint = z.infer<typeof missedCheckpoint>

export const resumePoint = obj({
  at: iso.describe(
    'when it happened: the run.begin time when one was matched, else the time of the first write after it',
  ),
  reasons: z.array(resumeReason),
  fromVersion: version
    .nullable()
    .describe(
      'the version a resume at that moment read: the latest version before the point; null if none or a tombstone',
    ),
  fromTrace: z.string().nullable().describe('the source_trace of the last non-operator write before the point'),
  toTrace: z
    .string()
    .nullable()
    .describe('the source_trace of the first write after the point (null when nothing was written yet)'),
  unitsDone: z.number().nullable().describe("units done in fromVersion's content"),
  firstWrite: obj({ version, at: iso, summary: z.string() })
    .nullable()
    .describe('the first write after the point and what it changed relative to fromVersion'),
  previous: obj({ version, isDeleted: z.boolean() })
    .nullable()
    .describe('the row just before the point, even a tombstone (null when none)'),
  gapMs: z
    .number()
    .nullable()
    .describe("milliseconds between the write just before the first write (anyone's) and the first write"),
  gapFrom: obj({ version, actor: z.string(), at: iso })
    .nullable()
    .describe('that last write before the gap: its version and who wrote it (an agent or `operator:<name>`)'),
  attempt: z.number().nullable().describe('the highest run.begin attempt matched to this point'),
  actor: z.string().nullable().describe('who made the first write (the operator, for operator points)'),
  historyGap: z
    .boolean()
    .describe(
      'version numbers are missing just before the first write (merged away), so the real resume may have read a later version',
    ),
  restoredFrom: version
    .nullable()
    .describe('for a restore: the version whose content was put back (null when not a restore or not found)'),
  missed: missedCheckpoint
    .nullable()
    .describe(
      'a newer checkpoint of the same run under another identity at the time of a process resume (a near miss in the past)',
    ),
})
export type ResumePoint = z.infer<typeof resumePoint>

export const operatorStep = obj({
  kind: z.enum(OPERATOR_ACTIONS),
  version,
  actor: z.string(),
  at: iso,
  restoredFrom: version.nullable(),
})
export type OperatorStep = z.infer<typeof operatorStep>

export const segment = obj({
  id: z.string().describe('`s1`, `s2`, … in order'),
  kind: z
    .enum(['process', 'operator'])
    .describe('`operator`: one or more consecutive dashboard writes (edit, clear, restore), folded'),
  sourceTrace: z.string().nullable().describe('null for a resumed process that has not written yet'),
  actor: z.string().nullable(),
  fromVersion: version.nullable(),
  toVersion: version.nullable(),
  startAt: iso,
  endAt: iso,
  writes: z.number().describe('rows in the segment'),
  endedBy: z.enum(SEGMENT_ENDS),
  endStatus: z
    .string()
    .nullable()
    .describe("for a segment that `completed`: the run's final status (succeeded, failed, cancelled)"),
  continuedUnder: identity.nullable().describe('for `abandoned`: the identity the run went on under'),
  endsWithTombstone: z.boolean().describe("the segment's last row is a tombstone"),
  unitsDone: z.number().nullable().describe("units done at the segment's last (non-tombstone) row"),
  startReasons: z
    .array(resumeReason)
    .describe('reasons of the point the segment starts at ([] for the first segment or a plain continuation)'),
  startPoint: z.number().nullable().describe('index into `points` of that point, or null'),
  steps: z.array(operatorStep).describe('operator segments: each action, in order'),
})
export type Segment = z.infer<typeof segment>

/** One attempt (run.begin) of a run and what it wrote under the identity asked about. */
export const attemptNote = obj({
  attempt: z.number(),
  beganAt: nullableIso.describe(
    'when its run.begin happened; null when the run row no longer keeps it (only the first and latest are kept)',
  ),
  wrote: obj({ from: version, to: version, writes: z.number() })
    .nullable()
    .describe("versions this identity's processes wrote during the attempt (null: none)"),
  elsewhere: obj({ ...identityFields, from: version, to: version })
    .nullable()
    .describe('when it wrote nothing here: what it wrote under another identity of the run, if anything'),
  unattributed: obj({ processes: z.number(), from: z.string(), to: z.string() })
    .nullable()
    .describe('its begin time is not kept, and processes here wrote with no run.begin matched: it may be one of them'),
})
export type AttemptNote = z.infer<typeof attemptNote>
