/** Runs: the list and its live poll, a run's header, suggestions, cohorts, analytics, compare, events. */
import { z } from 'zod'
import { iso, nullableIso, obj, runKeyFields, runOwnerFields, sessionFields, tokenFields, version } from './parts'
import { resumePoint } from './resume'
import { EVENT_KINDS, RUN_FLAGS, RUN_STATUSES } from './vocabulary'

export type RunStatus = (typeof RUN_STATUSES)[number]

export const checkpointSummary = obj({
  version,
  updatedAt: iso,
  chars: z.number(),
  charLimit: z.number(),
  isDeleted: z.boolean(),
  ...sessionFields,
})
export type CheckpointSummary = z.infer<typeof checkpointSummary>

export const runSummary = obj({
  ...runOwnerFields,
  goal: z.string(),
  status: z.string().describe('running, succeeded, failed, cancelled or unknown (checkpoint-only run)'),
  attempt: z.number(),
  startedAt: iso,
  completedAt: nullableIso,
  durationMs: z.number().nullable(),
  turns: z.number(),
  costUsd: z.number(),
  checkpoint: checkpointSummary.nullable(),
  flags: z.array(z.enum(RUN_FLAGS)).describe('what is unusual about the run, in the order of the flag list'),
})
export type RunSummary = z.infer<typeof runSummary>

export const runsPage = obj({
  runs: z.array(runSummary),
  nextCursor: z.string().nullable(),
  searchedTo: iso
    .optional()
    .describe(
      'only on a flag-filtered page that stopped looking before it was full (it reads a bounded number of runs per request): runs started before this were not checked yet, and nextCursor goes on from there; fewer runs than `limit` then does not mean there are no more',
    ),
})
/**
 * `flagsPending` is never sent by the API: it is set on a first page the server rendered before
 * its flags were read (every run's `flags` is empty until they arrive; the runs page streams them).
 */
export type RunsPage = z.infer<typeof runsPage> & { flagsPending?: true }

export const runCounts = obj({
  blocks: z.number(),
  versions: z.number(),
  turns: z.number(),
  memories: z.number(),
  searches: z.number(),
  blobs: z.number(),
})
export type RunCounts = z.infer<typeof runCounts>

export const runDetail = obj({
  run: runSummary.extend({
    reflection: z.string(),
    outcome: z.string(),
    lastBeginAt: nullableIso,
    hasRunRow: z.boolean(),
  }),
  memoriesUsed: z.array(z.string()),
  recalledKeys: z.array(z.string()),
  ...tokenFields,
  model: z.string(),
  counts: runCounts,
})
export type RunDetail = z.infer<typeof runDetail>

/** The runs page's live poll (`GET /api/runs/changes`). */
export const runChange = obj({
  ...runKeyFields,
  status: z.string().describe("the run's status now (`unknown` for a checkpoint-only run)"),
  changedAt: iso.describe('its latest write'),
  inFilter: z
    .boolean()
    .describe(
      'whether the run passes the whole filter now (status, q, from, to); runs are reported either way, so a run that just left the filter is seen too',
    ),
})
export type RunChange = z.infer<typeof runChange>
export const runChanges = obj({
  since: iso.describe('pass back as `since` on the next poll'),
  runs: z.array(runChange),
  truncated: z.boolean().describe('more runs changed than are listed: refetch everything'),
})
export type RunChanges = z.infer<typeof runChanges>

/** `GET /api/runs/facets`: suggestions for one filter box. */
export const facetValue = obj({
  value: z.string(),
  runs: z.number().describe('runs under this value (an estimate past tens of thousands)'),
})
export type FacetValue = z.infer<typeof facetValue>
export const facetsResponse = obj({ values: z.array(facetValue).describe('most runs first') })
export type FacetsResponse = z.infer<typeof facetsResponse>

/** Troubled runs that share their agent, status and problem flags. */
export const cohort = obj({
  key: z.string().describe('what the runs share, as one value'),
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  status: z.string(),
  flags: z
    .array(z.enum(RUN_FLAGS))
    .describe(
      'the problem flags every run of the cohort carries, and no other (resumed is not a problem), in flag-list order',
    ),
  runs: z.number(),
  firstAt: iso.describe('when its earliest run started'),
  lastAt: iso.describe('when its latest run started'),
  sample: z
    .array(z.string())
    .describe('up to 5 runs, org/namespace/agent/runId with URL-encoded segments, newest first'),
  href: z
    .string()
    .describe('the runs list filtered to the cohort (agent, status and flags), from which a batch can run'),
})
export type Cohort = z.infer<typeof cohort>
export const cohortsResponse = obj({
  cohorts: z.array(cohort).describe('largest first, then the most recent; at most `limit`'),
  total: z.number().describe('how many cohorts there are in all (more than returned when over `limit`)'),
  capped: z
    .array(z.enum(RUN_FLAGS))
    .describe(
      'with a q filter only (cohorts grouped from list pages): flags with more runs under the filter than were read, whose cohorts count only the runs read',
    ),
  searchedTo: nullableIso.describe("set when a flag's search stopped early: runs started before it were not checked"),
})
export type CohortsResponse = z.infer<typeof cohortsResponse>

export const BUCKET_UNITS = ['hour', 'day'] as const
export type BucketUnit = (typeof BUCKET_UNITS)[number]

export const statusBucket = obj({
  start: iso.describe('start of the bucket'),
  counts: z
    .record(z.string(), z.number())
    .describe('runs started in the bucket, by status (statuses with no run are left out)'),
  total: z.number(),
})
export type StatusBucket = z.infer<typeof statusBucket>

export const resumeDay = obj({
  day: z.string().describe("YYYY-MM-DD (UTC) of the run's latest `run.begin`"),
  resumedRuns: z.number().describe('runs whose latest begin fell on this day and that began more than once'),
  extraAttempts: z.number().describe('their attempts beyond the first'),
})
export type ResumeDay = z.infer<typeof resumeDay>

export const sizeBucket = obj({
  fromPct: z
    .number()
    .describe('share of char_limit, in percent: [fromPct, toPct); the last regular bucket includes 100'),
  toPct: z.number(),
  runs: z.number(),
})
export type SizeBucket = z.infer<typeof sizeBucket>

export const IDLE_KNOWN = ['all', 'partial', 'none'] as const

export const topRun = obj({
  ...runKeyFields,
  goal: z.string(),
  status: z.string(),
  startedAt: iso,
  durationMs: z.number().nullable(),
  costUsd: z.number(),
  attempt: z.number(),
  activeMs: z
    .number()
    .nullable()
    .describe('time in process segments; what "slowest" ranks by; null for a run without a duration'),
  idleMs: z.number().nullable().describe('time between a crash and the next begin; null when the data cannot tell'),
  idleKnown: z
    .enum(IDLE_KNOWN)
    .nullable()
    .describe('whether every idle gap of the run is known (activeMs is an upper bound when partial)'),
})
export type TopRun = z.infer<typeof topRun>

export const runsAnalytics = obj({
  statusOverTime: obj({ unit: z.enum(BUCKET_UNITS), buckets: z.array(statusBucket) }),
  totals: obj({ runs: z.number(), byStatus: z.record(z.string(), z.number()) }),
  resumes: obj({ days: z.array(resumeDay), resumedRuns: z.number(), extraAttempts: z.number() }),
  checkpointSizes: obj({
    buckets: z.array(sizeBucket).describe('ten buckets of 10 % each, over the latest live checkpoint of each run'),
    runs: z.number().describe('runs counted in the buckets'),
    cleared: z.number().describe('runs whose latest checkpoint is a tombstone (not in the buckets)'),
    overLimit: z
      .number()
      .describe('latest checkpoints over their char_limit (written around Loom; not in the buckets)'),
    nearLimit: z.number().describe('runs at 90 % of char_limit or more (the last bucket)'),
  }),
  slowest: z.array(topRun),
  costliest: z.array(topRun),
  servedFrom: z
    .enum(['aggregates', 'query'])
    .describe(
      'aggregates: running totals kept on write (filters of org / namespace / agent and status); query: the filtered runs read one by one (free text, time range, flags, or no rollup installed)',
    ),
})
export type RunsAnalytics = z.infer<typeof runsAnalytics>

/** One thing operators or setup changed (`GET /api/events`). */
export const consoleEvent = obj({
  at: iso,
  kind: z.enum(EVENT_KINDS),
  actor: z.string().describe('the operator; for setup, the user@host that ran it'),
  runKey: z.string().optional().describe('a single write: org/namespace/agent/runId with URL-encoded segments'),
  batchId: z.string().optional().describe('a batch or an undo'),
  summary: z.string().describe('one readable line'),
  href: z.string().optional().describe("where to look: the run's Audit tab, or the batch's writes on the audit page"),
})
export type ConsoleEvent = z.infer<typeof consoleEvent>
export const eventsResponse = obj({ events: z.array(consoleEvent).describe('newest first') })

export const compareCheckpoint = obj({ version, at: iso, chars: z.number(), isDeleted: z.boolean() })
export type CompareCheckpoint = z.infer<typeof compareCheckpoint>

export const compareSide = obj({
  run: runDetail.shape.run,
  checkpoints: z
    .array(compareCheckpoint)
    .describe("every captured version of the run's checkpoint block, oldest first ([] without one)"),
  resumes: z.array(resumePoint).describe('where a new process (or a long pause) picked the run up'),
  counts: runCounts.extend(tokenFields),
  model: z.string(),
  current: obj({ version, content: z.string(), isDeleted: z.boolean(), chars: z.number(), charLimit: z.number() })
    .nullable()
    .describe("the checkpoint's latest version and content; null without a checkpoint"),
})
export type CompareSide = z.infer<typeof compareSide>

/** `GET /api/compare` */
export const compareResponse = obj({
  a: compareSide,
  b: compareSide.nullable().describe('null when b was omitted and the agent has no earlier succeeded run (see why)'),
  why: z.string().optional(),
})
export type CompareResponse = z.infer<typeof compareResponse>
