import { z } from 'zod'

/** Building blocks shared by the response schemas of the OpenAPI document. */

/** Objects accept extra fields: the contract lets fields be added. */
export const obj = z.looseObject
export const iso = z.string().describe('ISO 8601 UTC time')
export const version = z.string().regex(/^\d+$/).describe('UInt64 version as a decimal string')
export const nullableIso = iso.nullable()

/** The writer identity under a run's (org, namespace). */
export const identity = { agent: z.string(), userId: z.string(), sessionId: z.string() }

/** A run and the identity its row was written under, as lists and batches show it. */
export const runIdentity = {
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  runId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
}

export const listCuts = z.array(obj({ list: z.string(), limit: z.number() })).describe('lists cut at their cap')
