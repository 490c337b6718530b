import 'server-only'
import type { NextRequest } from 'next/server'
import type { z } from 'zod'
import { AppError } from '../errors'
import { parseWith } from './handler'

/** Write bodies are small JSON documents: a checkpoint is at most a few char_limits. */
export const MAX_BODY_BYTES = 256 * 1024

/** Reads a JSON body with a size cap, then validates it: 413 over the cap, 400 when malformed. */
export async function readJsonBody<S extends z.ZodType>(req: NextRequest, schema: S): Promise<z.infer<S>> {
  const declared = Number(req.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) {
    throw new AppError('too_large', `request body is over ${MAX_BODY_BYTES} bytes`)
  }
  const type = req.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('invalid', 'body: send JSON with content-type: application/json', { details: { field: 'body' } })
  }
  const reader = req.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > MAX_BODY_BYTES) {
        await reader.cancel()
        throw new AppError('too_large', `request body is over ${MAX_BODY_BYTES} bytes`)
      }
      chunks.push(value)
    }
  }
  const text = Buffer.concat(chunks).toString('utf8')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new AppError('invalid', 'body: is not valid JSON', { details: { field: 'body' } })
  }
  return parseWith(schema, json, 'body')
}
