/** Response schemas of the console's other views: audit, batches, export, analytics, facets, health, schema, session. */
import { z } from 'zod'
import { block, resumePoint, runDetail } from './responses'
import { blobs, conversations, memories, searches, timeline } from './story-responses'
import { iso, listCuts, obj, runIdentity, version } from './schema-parts'

/** What a run wrote after the version a block goes back to (the replay preview's `after`). */
const replayAfter = obj({
  checkpointWrites: z.number().describe('versions of this block'),
  turns: z.number(),
  memoryWrites: z.number().describe('rows of loom.memory'),
  searches: z.number(),
  blobs: z.number(),
})

/** The units the agent will redo (the replay preview's `units`). */
const replayUnits = obj({
  kind: z.enum(['list', 'json-array', 'none']),
  redo: z.number().nullable().describe('units the current checkpoint holds that the target lacks'),
  sample: z.array(z.string()).describe('up to 10 of them'),
})


export const auditEntry = obj({
  at: iso,
  operator: z.string(),
  action: z.string(),
  reason: z.string(),
  blockKey: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  beforeVersion: z.string(),
  afterVersion: z.string(),
  beforeContent: z.string(),
  afterContent: z.string(),
  batchId: z.string().nullable().describe('the batch (POST /api/batches) the write belonged to; null for a single write'),
  restoredVersion: version.nullable().describe('a restore: the version whose content it put back as afterVersion; null otherwise'),
  undoes: z.string().nullable().describe('the write belonged to an undo: the batch it took back'),
})

const batchItem = obj({
  ...runIdentity,
  blockKey: z.string(),
  fromVersion: version.nullable().describe("the block's latest version at the preview (the write's expectedVersion); null without a block"),
  toVersion: version.nullable().describe('restore: the version put back; null for clear'),
  action: z.enum(['clear', 'restore', 'skip']),
  why: z.string().optional().describe('why the item is skipped; `running` for a run still running with a checkpoint under 5 minutes old (send force: true to write it anyway)'),
  status: z.string().describe("the run's status at the preview"),
  current: obj({
    version,
    actor: z.string().describe('who wrote it: `operator:<name>` for the console'),
    byOperator: z.boolean(),
    isDeleted: z.boolean().describe('a tombstone: the block was cleared'),
    updatedAt: z.string(),
  })
    .nullable()
    .describe("the row the write would replace (the block's latest now); null without a block"),
  warnings: z.array(z.string()).describe("what to know before writing it: `running`, `replaces an operator's write`, `replaces live version N: not a tombstone`"),
  after: replayAfter.optional().describe('dry run, items that write: what the run wrote after the version the block goes back to'),
  units: replayUnits.optional().describe('dry run, items that write: the units the agent will redo'),
})

const batchPreview = obj({
  items: z.array(batchItem),
  total: z.number(),
  token: z.string().describe('proves this preview; send it back with dryRun: false'),
}).describe('dryRun: true')

const batchResult = obj({
  batchId: z.string().describe('every audit row the batch wrote carries it'),
  items: z.array(
    batchItem.extend({
      outcome: z.enum(['done', 'conflict', 'skipped', 'error']),
      newVersion: version.optional().describe('outcome done: the version written'),
      currentVersion: version.nullable().optional().describe('outcome conflict: the latest version now'),
      message: z.string().optional(),
    }),
  ),
  notMatched: z.number().describe('previewed runs the filter no longer matches (left alone)'),
  warning: z.string().optional().describe('the writes landed but the batch could not be kept (it cannot be undone from the console)'),
}).describe('dryRun: false')

export const batch = z.union([batchPreview, batchResult])

const outcomes = obj({ done: z.number(), conflict: z.number(), skipped: z.number(), error: z.number() })

/** A kept batch (or undo), without its items. */
const keptBatch = obj({
  batchId: z.string(),
  at: iso,
  actor: z.string().describe('the operator who ran it'),
  action: z.enum(['clear', 'restore', 'undo']),
  blockKey: z.string(),
  filter: z.record(z.string(), z.unknown()).describe("the runs filter it was run with (an undo: its batch's)"),
  request: z
    .object({ filter: z.record(z.string(), z.unknown()), blockKey: z.string(), action: z.enum(['clear', 'restore']), before: z.string().optional(), runs: z.array(obj({ org: z.string(), namespace: z.string(), agent: z.string(), runId: z.string() })).optional(), force: z.boolean().optional() })
    .nullable()
    .describe('the request as sent, without token and reason'),
  reason: z.string(),
  counts: outcomes,
  undoneBy: z.string().nullable().describe('the latest undo that took this batch back'),
  undoes: z.string().nullable().describe('an undo: the batch it takes back'),
})

export const batches = obj({ batches: z.array(keptBatch).describe('newest first') })

export const batchDetail = keptBatch.extend({
  items: z.array(
    obj({
      ...runIdentity,
      blockKey: z.string(),
      action: z.enum(['clear', 'restore', 'skip']),
      fromVersion: version.nullable().describe("the block's latest version before the batch"),
      fromDeleted: z.boolean().describe('that version was a tombstone'),
      toVersion: version.nullable().describe('restore: the version whose content was put back'),
      newVersion: version.nullable().describe('the version the batch wrote (outcome done)'),
      outcome: z.enum(['done', 'conflict', 'skipped', 'error']),
      contentHash: z.string().nullable().describe('`sha256:<hex>` of the content written (a clear: of the empty string); null when nothing was written'),
      message: z.string().optional(),
    }),
  ),
})

export const undo = z.union([
  batchPreview.extend({ batch: keptBatch.describe('the batch the undo takes back') }).describe('dryRun: true'),
  batchResult.extend({ undoes: z.string().describe('the batch taken back') }).describe('dryRun: false'),
])

export const audit = obj({ entries: z.array(auditEntry), installed: z.boolean(), cuts: listCuts })

/** GET /api/audit: operator writes across runs (no contents: each links to its run's Audit tab). */
export const consoleAudit = obj({
  installed: z.boolean().describe('false when the audit table is missing (nothing was ever recorded)'),
  entries: z.array(
    obj({
      ...runIdentity,
      at: iso,
      operator: z.string(),
      action: z.string(),
      reason: z.string(),
      blockKey: z.string(),
      beforeVersion: z.string(),
      afterVersion: z.string(),
      batchId: z.string().nullable(),
      restoredVersion: version.nullable(),
      undoes: z.string().nullable().describe('the write belonged to an undo: the batch it took back'),
      href: z.string().describe("the run's Audit tab"),
    }),
  ),
  nextCursor: z.string().nullable().describe('the next (older) page; null on the last'),
})

export const exportDocument = runDetail.extend({
  exportedAt: iso,
  blocks: z.array(block),
  blockDetails: z.array(obj({ userId: z.string(), sessionId: z.string(), blockKey: z.string(), versions: z.array(block), flags: obj({}) })),
  timeline,
  conversations: conversations.shape.conversations,
  memories: obj({ written: memories.shape.written, used: memories.shape.used, recalled: memories.shape.recalled, relied: memories.shape.relied }),
  searches: searches.shape.searches,
  blobs: obj({ blobs: blobs.shape.blobs, missing: blobs.shape.missing }),
  audit: z.array(auditEntry),
  cuts: listCuts,
})

const topRun = obj({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  runId: z.string(),
  goal: z.string(),
  status: z.string(),
  startedAt: iso,
  durationMs: z.number().nullable(),
  costUsd: z.number(),
  attempt: z.number(),
  activeMs: z.number().nullable(),
  idleMs: z.number().nullable(),
})

export const analytics = obj({
  statusOverTime: obj({ unit: z.enum(['hour', 'day']), buckets: z.array(obj({ start: iso, counts: z.record(z.string(), z.number()), total: z.number() })) }),
  totals: obj({ runs: z.number(), byStatus: z.record(z.string(), z.number()) }),
  resumes: obj({ days: z.array(obj({ day: z.string(), resumedRuns: z.number(), extraAttempts: z.number() })), resumedRuns: z.number(), extraAttempts: z.number() }),
  checkpointSizes: obj({
    buckets: z.array(obj({ fromPct: z.number(), toPct: z.number(), runs: z.number() })),
    runs: z.number(),
    cleared: z.number(),
    overLimit: z.number(),
    nearLimit: z.number(),
  }),
  slowest: z.array(topRun),
  costliest: z.array(topRun),
  servedFrom: z
    .enum(['aggregates', 'query'])
    .describe('aggregates: running totals kept on write (filters of org / namespace / agent and status); query: the filtered runs read one by one (free text, time range, flags)'),
})

export const facets = obj({
  values: z.array(obj({ value: z.string(), runs: z.number().describe('runs under this value (an estimate past tens of thousands)') })).describe('most runs first'),
})

export const changes = obj({
  since: iso,
  runs: z.array(obj({ org: z.string(), namespace: z.string(), agent: z.string(), runId: z.string(), status: z.string(), changedAt: iso, inFilter: z.boolean() })),
  truncated: z.boolean(),
})

export const derivedFreshness = obj({
  lagMs: z.number().nullable().describe('how far the derived tables (run index, flags, facets, analytics) trail the agents\' writes, in ms; null before the first batch or when they are not installed'),
  lastRunAt: iso.nullable().describe('when the last derivation batch ended'),
  error: z.string().nullable().describe('the last batch\'s failure; null when it succeeded (a failed batch is retried on the next tick)'),
})

export const health = obj({
  mode: z.enum(['embedded', 'remote']),
  clickhouseVersion: z.string().nullable(),
  readOnly: z.boolean(),
  schema: obj({ phase: z.string(), detail: z.string().optional(), tables: z.array(obj({ name: z.string(), present: z.boolean() })) }),
  setup: obj({ runIndex: z.boolean(), history: z.boolean(), command: z.string() }),
  engine: obj({ statements: z.number(), busyMs: z.number() })
    .nullable()
    .describe('embedded only: statements the engine ran since start-up and the milliseconds it was busy with them (one at a time), read before this request\'s own statements; null for a ClickHouse server'),
  derived: derivedFreshness,
})

export const schemaReport = obj({
  status: z.enum(['ok', 'warnings', 'problems']),
  checkedAt: iso,
  mode: z.enum(['embedded', 'remote']),
  clickhouseVersion: z.string().nullable(),
  summary: obj({ problems: z.number(), warnings: z.number(), info: z.number(), tablesExpected: z.number(), tablesPresent: z.number() }),
  databases: z.array(obj({})),
  tables: z.array(obj({ fullName: z.string(), status: z.enum(['ok', 'info', 'warning', 'problem']) })),
  workingMemory: obj({}).nullable(),
  history: obj({}),
  runIndex: obj({}),
  mapping: obj({ source: z.string().nullable(), tables: z.array(obj({})) }),
  disabled: z.array(obj({ table: z.string(), feature: z.string(), severity: z.enum(['problem', 'warning', 'info']) })),
})

const role = z.enum(['viewer', 'operator'])

export const me = obj({ user: obj({ name: z.string(), role }).nullable(), authRequired: z.boolean(), canWrite: z.boolean(), readOnly: z.boolean() })
export const login = obj({ user: obj({ name: z.string(), role }) })
export const logout = obj({ ok: z.literal(true), endedSession: z.boolean(), remembered: z.enum(['stored', 'process-only']).nullable() })

export const replay = obj({
  toVersion: version.nullable().describe('the version the block would go back to; null for a clear'),
  target: obj({ version, updatedAt: iso }).nullable(),
  current: obj({ version, updatedAt: iso }),
  since: iso.describe("the target version's write time (a clear: the run's first write); `after` counts rows written strictly later"),
  after: replayAfter,
  units: replayUnits,
  running: z.boolean(),
  notes: z.array(z.string()).describe('what the counts leave out, and what to beware of'),
})

/** GET /api/runs/cohorts */
export const cohorts = obj({
  cohorts: z
    .array(
      obj({
        key: z.string().describe('what the runs share, as one value'),
        org: z.string(),
        namespace: z.string(),
        agent: z.string(),
        status: z.string(),
        flags: z.array(z.string()).describe('the problem flags every run of the cohort carries, and no other (resumed is not a problem)'),
        runs: z.number(),
        firstAt: iso.describe('when its earliest run started'),
        lastAt: iso.describe('when its latest run started'),
        sample: z.array(z.string()).describe('up to 5 runs, org/namespace/agent/runId with URL-encoded segments, newest first'),
        href: z.string().describe('the runs list filtered to the cohort, from which a batch can run'),
      }),
    )
    .describe('largest first, then the most recent; at most `limit`'),
  total: z.number().describe('how many cohorts there are in all (more than returned when over `limit`)'),
  capped: z.array(z.string()).describe('with a q filter only (cohorts grouped from list pages): flags with more than 100 runs under the filter, whose cohorts count the newest 100'),
  searchedTo: iso.nullable().describe("set when a flag's search stopped early: runs started before it were not checked"),
})

/** GET /api/events */
export const events = obj({
  events: z
    .array(
      obj({
        at: iso,
        kind: z.enum(['write', 'batch', 'undo', 'setup']),
        actor: z.string().describe('the operator; for setup, the user@host that ran it'),
        runKey: z.string().optional().describe('a single write: org/namespace/agent/runId with URL-encoded segments'),
        batchId: z.string().optional().describe('a batch or an undo'),
        summary: z.string().describe('one readable line'),
        href: z.string().optional().describe("where to look: the run's Audit tab, or the batch's writes"),
      }),
    )
    .describe('newest first'),
})

const compareSide = obj({
  run: runDetail.shape.run,
  checkpoints: z.array(obj({ version, at: iso, chars: z.number(), isDeleted: z.boolean() })).describe("every captured version of the run's checkpoint, oldest first"),
  resumes: z.array(resumePoint).describe('where a new process (or a long pause) picked the run up'),
  counts: obj({ blocks: z.number(), versions: z.number(), turns: z.number(), memories: z.number(), searches: z.number(), blobs: z.number(), inputTokens: z.number(), outputTokens: z.number() }),
  model: z.string(),
  current: obj({ version, content: z.string(), isDeleted: z.boolean(), chars: z.number(), charLimit: z.number() }).nullable().describe("the checkpoint's latest version; null without one"),
})

/** GET /api/compare */
export const compare = obj({
  a: compareSide,
  b: compareSide.nullable().describe("null when b was omitted and the agent has no earlier succeeded run (see why)"),
  why: z.string().optional(),
})

const savedView = obj({
  id: z.string(),
  name: z.string().describe('1-80 characters'),
  filter: z.record(z.string(), z.unknown()).describe('the runs filter, as batches take it'),
  shared: z.boolean(),
  owner: z.string(),
  createdAt: iso,
  updatedAt: iso,
  alert: obj({ webhook: z.string(), threshold: z.number(), enabled: z.boolean() }).nullable(),
})

export const views = obj({ views: z.array(savedView).describe("the caller's own views and the shared ones, by name") })
export const view = obj({ view: savedView })
export const viewDeleted = obj({ deleted: z.string() })

const delivery = obj({ at: iso, kind: z.enum(['alert', 'test']), status: z.number().describe('the HTTP status; 0 when no answer came'), ok: z.boolean(), count: z.number(), error: z.string().optional() })
export const deliveries = obj({ deliveries: z.array(delivery).describe('newest first') })
export const testDelivery = obj({ delivery })

/** POST /api/mcp: a JSON-RPC 2.0 answer (the Model Context Protocol). */
export const mcpResponse = obj({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]).nullable().optional(), result: z.unknown().optional(), error: obj({ code: z.number(), message: z.string() }).optional() }).describe('JSON-RPC 2.0; see modelcontextprotocol.io')
