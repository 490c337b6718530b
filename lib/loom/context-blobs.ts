import { randomUUID } from 'node:crypto'
import { insertRows } from './insert'
import { toChTime } from '../tables/time'
import { identityParams, systemClock, type Clock, type Identity } from './identity'
import { tableNames } from './tables'

export type OffloadInput = Identity & {
  runId: string
  summary: string
  content: string
  ttlSeconds: number
  blobKey?: string
}

/** `context.offload`: stores a large blob; the caller keeps its blob_key (e.g. in a checkpoint). */
export async function contextOffload(input: OffloadInput, now: Clock = systemClock): Promise<string> {
  const blobKey = input.blobKey ?? `blob-${randomUUID()}`
  const created = now()
  await insertRows(tableNames().contextBlobs, [
    {
      ...identityParams(input),
      blob_key: blobKey,
      run_id: input.runId,
      summary: input.summary,
      content: input.content,
      size_bytes: Buffer.byteLength(input.content, 'utf8'),
      created_at: toChTime(created),
      expires_at: toChTime(new Date(created.getTime() + input.ttlSeconds * 1000)),
    },
  ])
  return blobKey
}
