import { z } from 'zod'
import { queryRows } from '../clickhouse/query'
import { chTimeToIso } from '../clickhouse/time'
import { runParams, versionString, type RunRef } from '../loom/identity'
import { tableNames, source } from '../loom/tables'
import { wmRunScope } from './wm-run-scope'
import { tableExists } from './schema-presence'
import { RUN_SCOPE } from './working-memory'
import { BLOBS_CAP, BLOB_REFERENCES_CAP, keepCap, overCap, type ListCut } from './list-cut'

export type RunBlob = {
  blobKey: string
  summary: string
  sizeBytes: number
  createdAt: string
  expiresAt: string
  expired: boolean
  /** Checkpoint versions whose content names this blob_key. */
  referencedBy: { version: string; userId: string; sessionId: string; blockKey: string }[]
}

const blobSchema = z.object({
  blob_key: z.string(),
  summary: z.string(),
  size_bytes: z.coerce.number(),
  created_at: z.string().transform(chTimeToIso),
  expires_at: z.string().transform(chTimeToIso),
})

const refSchema = z.object({
  version: versionString,
  user_id: z.string(),
  session_id: z.string(),
  block_key: z.string(),
  blob_key: z.string(),
})

/** The run's context offloads, and which block versions point at each (from history when installed). */
export async function runBlobs(run: RunRef, signal?: AbortSignal) {
  const t = tableNames()
  const blobRows = await queryRows(
    `SELECT blob_key, summary, size_bytes, toString(created_at) AS created_at, toString(expires_at) AS expires_at
     FROM ${source(t.contextBlobs)} WHERE ${RUN_SCOPE} ORDER BY created_at LIMIT {cap:UInt32}`,
    { ...runParams(run), cap: overCap(BLOBS_CAP) },
    blobSchema,
    { signal },
  )
  const versionsTable = (await tableExists(t.history, signal)) ? t.history : t.workingMemory
  const refRows = await queryRows(
    `SELECT DISTINCT version, user_id, session_id, block_key, JSONExtractString(content, 'blob_key') AS blob_key
     FROM ${source(versionsTable)}
     WHERE ${await wmRunScope(signal)} AND position(content, 'blob_key') > 0 AND JSONExtractString(content, 'blob_key') != ''
     ORDER BY version LIMIT {cap:UInt32}`,
    { ...runParams(run), cap: overCap(BLOB_REFERENCES_CAP) },
    refSchema,
    { signal },
  )
  const cuts: ListCut[] = []
  const blobs = keepCap(blobRows, BLOBS_CAP, 'blobs', cuts)
  const refs = keepCap(refRows, BLOB_REFERENCES_CAP, 'references', cuts)
  const now = Date.now()
  const known = new Set(blobs.map((b) => b.blob_key))
  const list: RunBlob[] = blobs.map((b) => ({
    blobKey: b.blob_key,
    summary: b.summary,
    sizeBytes: b.size_bytes,
    createdAt: b.created_at,
    expiresAt: b.expires_at,
    expired: Date.parse(b.expires_at) <= now,
    referencedBy: refs
      .filter((r) => r.blob_key === b.blob_key)
      .map((r) => ({ version: r.version, userId: r.user_id, sessionId: r.session_id, blockKey: r.block_key })),
  }))
  // Keys a checkpoint names but no blob row has any more: expired and removed by TTL, or never written.
  const missing = [...new Set(refs.map((r) => r.blob_key).filter((k) => !known.has(k)))].map((k) => ({
    blobKey: k,
    referencedBy: refs
      .filter((r) => r.blob_key === k)
      .map((r) => ({ version: r.version, userId: r.user_id, sessionId: r.session_id, blockKey: r.block_key })),
  }))
  return { blobs: list, missing, cuts }
}
