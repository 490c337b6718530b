import { z } from 'zod'

/**
 * Building blocks of the response shapes. Objects are declared closed (`z.object`) so that the
 * types inferred from them are exact and a test can tell a body that gained an undeclared field;
 * the published OpenAPI document opens them again (the contract lets fields be added).
 */
export const obj = z.object
export const iso = z.string().describe('ISO 8601 UTC time')
export const version = z.string().regex(/^\d+$/).describe('UInt64 version as a decimal string')
export const nullableIso = iso.nullable()

/** The user and session a row was written under. */
export const sessionFields = { userId: z.string(), sessionId: z.string() }

/** The writer identity under a run's (org, namespace): the parts of a block's address a resume must match. */
export const identityFields = { agent: z.string(), ...sessionFields }
export const identity = obj(identityFields)
export type Identity = z.infer<typeof identity>

/** What names a run. */
export const runKeyFields = { org: z.string(), namespace: z.string(), agent: z.string(), runId: z.string() }
export const runKey = obj(runKeyFields)

/** A run and the identity (user, session) its row was written under, as lists and batches show it. */
export const runOwnerFields = { ...runKeyFields, ...sessionFields }
export const runOwner = obj(runOwnerFields)
export type RunOwner = z.infer<typeof runOwner>

/** A block's address within a run. */
export const blockKeyFields = { ...sessionFields, blockKey: z.string() }

/** Which ClickHouse the console reads: the embedded engine or a server, and its version. */
export const clickhouseFields = { mode: z.enum(['embedded', 'remote']), clickhouseVersion: z.string().nullable() }

/** The tokens a run or a turn used. */
export const tokenFields = { inputTokens: z.number(), outputTokens: z.number() }

/** A list the server cut at its cap. */
export const listCut = obj({ list: z.string(), limit: z.number() })
export type ListCut = z.infer<typeof listCut>
export const listCuts = z.array(listCut).describe('lists cut at their cap')
