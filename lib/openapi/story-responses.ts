/** Response schemas of a run's story views: timeline, conversations, memories, searches, blobs. */
import { z } from 'zod'
import { TIMELINE_KINDS } from '../api/timeline-kinds'
import { attemptNote, resumePoint } from './responses'
import { iso, listCuts, obj, version } from './schema-parts'

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
