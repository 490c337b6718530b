/**
 * Response bodies of the HTTP API as zod schemas, for the OpenAPI document only: they mirror the
 * TypeScript types in lib/api/types.ts and the query modules (same field names; nothing is
 * renamed here). Objects accept extra fields, as the contract lets fields be added.
 */
import { z } from 'zod'
import { TIMELINE_KINDS } from '../timeline-kinds'

const obj = z.looseObject
const iso = z.string().describe('ISO 8601 UTC time')
const version = z.string().regex(/^\d+$/).describe('UInt64 version as a decimal string')
const nullableIso = iso.nullable()

export const errorBody = obj({
  error: obj({
    code: z.string().describe('invalid, unauthorized, forbidden, misdirected, rate_limited, not_found, conflict, run_active, too_large, unavailable, timeout'),
    message: z.string(),
    field: z.string().optional().describe('the input field at fault (400)'),
  }),
})

export const block = obj({
  userId: z.string(),
  sessionId: z.string(),
  blockKey: z.string(),
  version,
  content: z.string(),
  isDeleted: z.boolean(),
  charLimit: z.number(),
  chars: z.number(),
  actor: z.string(),
  sourceTrace: z.string(),
  updatedAt: iso,
})

export const conflictBody = errorBody.extend({ current: block.nullable().optional() })

const identity = { agent: z.string(), userId: z.string(), sessionId: z.string() }

const checkpointSummary = obj({
  version,
  updatedAt: iso,
  chars: z.number(),
  charLimit: z.number(),
  isDeleted: z.boolean(),
  userId: z.string(),
  sessionId: z.string(),
})

export const runSummary = obj({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  runId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  goal: z.string(),
  status: z.string().describe('running, succeeded, failed, cancelled or unknown (checkpoint-only run)'),
  attempt: z.number(),
  startedAt: iso,
  completedAt: nullableIso,
  durationMs: z.number().nullable(),
  turns: z.number(),
  costUsd: z.number(),
  checkpoint: checkpointSummary.nullable(),
})

export const runsPage = obj({
  runs: z.array(runSummary),
  nextCursor: z.string().nullable(),
  searchedTo: iso
    .optional()
    .describe('Only on a flag-filtered page that stopped looking before it was full: runs started before this were not checked yet; nextCursor goes on from there'),
})

export const runDetail = obj({
  run: runSummary.extend({ reflection: z.string(), outcome: z.string(), lastBeginAt: nullableIso, hasRunRow: z.boolean() }),
  memoriesUsed: z.array(z.string()),
  recalledKeys: z.array(z.string()),
  inputTokens: z.number(),
  outputTokens: z.number(),
  model: z.string(),
  counts: obj({ blocks: z.number(), versions: z.number(), turns: z.number(), memories: z.number(), searches: z.number(), blobs: z.number() }),
})

export const blocksResponse = obj({
  blocks: z.array(block.partial({ content: true })).describe('with content=none every block comes without its content'),
})

const resumeReason = z.enum(['run-begin', 'new-process', 'long-gap', 'operator-edit', 'operator-clear', 'operator-restore'])

const resumePoint = obj({
  at: iso,
  reasons: z.array(resumeReason),
  fromVersion: version.nullable(),
  fromTrace: z.string().nullable(),
  toTrace: z.string().nullable(),
  unitsDone: z.number().nullable(),
  firstWrite: obj({ version, at: iso, summary: z.string() }).nullable(),
  previous: obj({ version, isDeleted: z.boolean() }).nullable(),
  gapMs: z.number().nullable(),
  gapFrom: obj({ version, actor: z.string(), at: iso }).nullable(),
  attempt: z.number().nullable(),
  actor: z.string().nullable(),
  historyGap: z.boolean(),
  restoredFrom: version.nullable(),
  missed: obj({ ...identity, version, updatedAt: iso, unitsDone: z.number().nullable(), unitsRedone: z.number().nullable(), under: z.string() }).nullable(),
})

const segment = obj({
  id: z.string(),
  kind: z.enum(['process', 'operator']),
  sourceTrace: z.string().nullable(),
  actor: z.string().nullable(),
  fromVersion: version.nullable(),
  toVersion: version.nullable(),
  startAt: iso,
  endAt: iso,
  writes: z.number(),
  endedBy: z.enum(['completed', 'crashed', 'abandoned', 'cleared', 'stalled', 'running', 'unknown', 'operator']),
  endStatus: z.string().nullable(),
  continuedUnder: obj(identity).nullable(),
  endsWithTombstone: z.boolean(),
  unitsDone: z.number().nullable(),
  startReasons: z.array(resumeReason),
  startPoint: z.number().nullable(),
  steps: z.array(obj({ kind: z.enum(['edit', 'clear', 'restore']), version, actor: z.string(), at: iso, restoredFrom: version.nullable() })),
})

const attemptNote = obj({
  attempt: z.number(),
  beganAt: nullableIso,
  wrote: obj({ from: version, to: version, writes: z.number() }).nullable(),
  elsewhere: obj({ ...identity, from: version, to: version }).nullable(),
  unattributed: obj({ processes: z.number(), from: z.string(), to: z.string() }).nullable(),
})

const nearMiss = obj({ ...identity, blockKey: z.string(), version, isDeleted: z.boolean(), updatedAt: iso })

export const blockDetail = obj({
  block: block.nullable(),
  versions: z.array(block.extend({ part: z.string(), isFinal: z.boolean() })),
  history: z.array(block).nullable(),
  historyInstalled: z.boolean(),
  resume: obj({
    value: z.string().nullable(),
    fromVersion: version.nullable(),
    points: z.array(resumePoint),
    explanation: z.array(z.string()),
    attempts: z.array(attemptNote),
    attemptsText: z.string().nullable(),
    segments: z.array(segment),
    mermaid: z.string(),
    source: z.enum(['history', 'physical']),
  }),
  flags: obj({
    ties: z.array(version),
    nearMisses: z.array(nearMiss),
    nearLimit: z.boolean(),
    blob: obj({ blobKey: z.string(), state: z.enum(['live', 'expired', 'missing']), expiresAt: nullableIso }).nullable(),
  }),
})

export const writeResult = obj({
  block,
  confirmed: z.boolean().describe('false when, after the insert, FINAL returned another row (a tie or a newer write)'),
  warning: z.string().optional(),
  current: block.nullable().optional(),
  auditId: z.string(),
})

const listCuts = z.array(obj({ list: z.string(), limit: z.number() })).describe('lists cut at their cap')

export const timeline = obj({
  events: z.array(
    obj({
      id: z.string(),
      at: iso,
      kind: z.enum(TIMELINE_KINDS),
      label: z.string(),
      version: version.nullable(),
      blockKey: z.string().nullable(),
      userId: z.string(),
      sessionId: z.string(),
      actor: z.string(),
      detail: z.string(),
      ref: z.string(),
    }),
  ),
  resumes: z.array(resumePoint),
  attempts: z.array(attemptNote),
  attemptsText: z.string().nullable(),
  total: z.number(),
  truncated: z.boolean(),
  limit: z.number(),
})

const turn = obj({
  turnIndex: z.number(),
  role: z.string(),
  content: z.string(),
  toolName: z.string(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number(),
  createdAt: iso,
})

export const conversations = obj({
  conversations: z.array(obj({ conversationId: z.string(), title: z.string(), createdAt: iso, userId: z.string(), sessionId: z.string(), turns: z.array(turn) })),
  cuts: listCuts,
})

export const memories = obj({
  written: z.array(
    obj({
      memoryKey: z.string(),
      version,
      value: z.string(),
      status: z.string(),
      confidence: z.number(),
      memoryType: z.string(),
      userId: z.string(),
      sessionId: z.string(),
      updatedAt: iso,
      versionCount: z.number(),
      versionsStored: z.array(version),
    }),
  ),
  used: z.array(z.string()).describe('memory keys the run listed in memories_used'),
  recalled: z.array(z.string()).describe('memory keys the run recalled'),
  relied: z.array(
    obj({
      memoryKey: z.string(),
      recalled: z.boolean(),
      used: z.boolean(),
      writtenBy: obj({ agent: z.string(), runId: z.string(), version, value: z.string(), status: z.string() }).nullable(),
    }),
  ),
  cuts: listCuts,
})

const memoryWrite = obj({ agent: z.string(), runId: z.string(), version, at: iso })

export const searches = obj({
  searches: z.array(
    obj({
      searchId: z.string(),
      at: iso,
      query: z.string(),
      mode: z.string(),
      filters: z.string(),
      topK: z.number(),
      latencyMs: z.number(),
      userId: z.string(),
      sessionId: z.string(),
      hits: z.array(
        obj({
          memoryKey: z.string(),
          score: z.number(),
          rank: z.number(),
          usedByRun: z.boolean(),
          writtenBy: memoryWrite.nullable(),
          writtenAfter: memoryWrite.nullable(),
          searchedVersionGone: z.boolean(),
        }),
      ),
    }),
  ),
  traceLog: z.enum(['on', 'empty', 'missing']),
  cuts: listCuts,
})

export const blobs = obj({
  blobs: z.array(
    obj({
      blobKey: z.string(),
      summary: z.string(),
      sizeBytes: z.number(),
      createdAt: iso,
      expiresAt: iso,
      expired: z.boolean(),
      referencedBy: z.array(obj({ version, userId: z.string(), sessionId: z.string(), blockKey: z.string() })),
    }),
  ),
  missing: z
    .array(obj({ blobKey: z.string(), referencedBy: z.array(obj({ version, userId: z.string(), sessionId: z.string(), blockKey: z.string() })) }))
    .describe('blob keys that checkpoints name but no blob row holds'),
  cuts: listCuts,
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
})

const batchItem = obj({
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  runId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  blockKey: z.string(),
  fromVersion: version.nullable().describe("the block's latest version at the preview (the write's expectedVersion); null without a block"),
  toVersion: version.nullable().describe('restore: the version put back; null for clear'),
  action: z.enum(['clear', 'restore', 'skip']),
  why: z.string().optional().describe('why the item is skipped'),
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
}).describe('dryRun: false')

export const batch = z.union([batchPreview, batchResult])

export const audit = obj({ entries: z.array(auditEntry), installed: z.boolean(), cuts: listCuts })

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

export const health = obj({
  mode: z.enum(['embedded', 'remote']),
  clickhouseVersion: z.string().nullable(),
  readOnly: z.boolean(),
  schema: obj({ phase: z.string(), detail: z.string().optional(), tables: z.array(obj({ name: z.string(), present: z.boolean() })) }),
  setup: obj({ runIndex: z.boolean(), history: z.boolean(), command: z.string() }),
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
