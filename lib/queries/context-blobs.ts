import { z } from 'zod'
import { selectRows } from '../clickhouse/query'
import { param, sql, trusted } from '../clickhouse/sql'
import type { RunRef } from '../loom/identity'
import { versionString } from '../tables/values'
import { runScope } from '../loom/scope'
import { tableNames, source } from '../loom/tables'
import { BLOB_COLUMNS, blobRowSchema } from '../tables/context-blobs'
import { tableExists } from '../clickhouse/schema-presence'
import { workingMemoryRunScope } from './wm-run-scope'
import { BLOBS_CAP, BLOB_REFERENCES_CAP, keepCap, overCap, type ListCut } from './list-cut'
import type { RunBlob } from '../endpoints/story'
export type { RunBlob } from '../endpoints/story'

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
  const blobRows = await selectRows(
    sql`SELECT ${trusted(BLOB_COLUMNS)}
     FROM ${trusted(source(t.contextBlobs))} WHERE ${runScope(run)} ORDER BY created_at LIMIT ${param('cap', 'UInt32', overCap(BLOBS_CAP))}`,
    blobRowSchema,
    { signal },
  )
  const versionsTable = (await tableExists(t.history, signal)) ? t.history : t.workingMemory
  const refRows = await selectRows(
    sql`SELECT DISTINCT version, user_id, session_id, block_key, JSONExtractString(content, 'blob_key') AS blob_key
     FROM ${trusted(source(versionsTable))}
     WHERE ${await workingMemoryRunScope(run, signal)} AND position(content, 'blob_key') > 0 AND JSONExtractString(content, 'blob_key') != ''
     ORDER BY version LIMIT ${param('cap', 'UInt32', overCap(BLOB_REFERENCES_CAP))}`,
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
