import { z } from 'zod'
import { chTimeToIso } from './time'
import { columns, DATETIME, engine, IDENTITY_COLUMNS, RUN_ID_BLOOM, type LoomTableDeclaration } from './declaration'

export const contextBlobsTable = {
  key: 'contextBlobs',
  contractName: 'context_blobs',
  group: 'loom',
  purpose: 'Context offloads (context.offload): large state a checkpoint points to by blob_key.',
  whenMissing: 'warning',
  disables: 'Blobs tab, offload events in the Timeline, and the expired-blob flag on checkpoints',
  columns: [
    ...IDENTITY_COLUMNS,
    ...columns(`
      blob_key String
      run_id String
      summary String
      content String
      size_bytes UInt64
      created_at ${DATETIME}
      expires_at ${DATETIME}`),
  ],
  engine: engine('MergeTree'),
  sortingKey: ['org', 'namespace', 'agent', 'blob_key'],
  skipIndexes: [RUN_ID_BLOOM],
  ttl: 'toDateTime(expires_at)',
} satisfies LoomTableDeclaration

/** The SELECT list `blobRowSchema` reads: a blob without its content. */
export const BLOB_COLUMNS =
  'blob_key, summary, size_bytes, toString(created_at) AS created_at, toString(expires_at) AS expires_at'

export const blobRowSchema = z.object({
  blob_key: z.string(),
  summary: z.string(),
  size_bytes: z.coerce.number(),
  created_at: z.string().transform(chTimeToIso),
  expires_at: z.string().transform(chTimeToIso),
})
