import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { runAudit } from '../queries/audit'
import type { runBlobs } from '../queries/context-blobs'
import type { runConversations } from '../queries/conversations'
import type { runMemories } from '../queries/memory'
import type { runSearches } from '../queries/search-trace'
import type { runTimeline } from '../queries/timeline'
import type * as T from './types'

/** True only when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** True when every body the server builds is one the client reads (the client may be more lenient). */
type Fits<Server, Client> = [Server] extends [Client] ? true : false
type Body<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>

// A `false` here is a type error: the client's contract and the server's answer went apart.
const agreements: Record<string, true> = {
  timeline: true satisfies Same<T.TimelineResponse, Body<typeof runTimeline>>,
  conversations: true satisfies Fits<Body<typeof runConversations>, T.ConversationsResponse>,
  audit: true satisfies Same<T.AuditResponse, Body<typeof runAudit>>,
  memories: true satisfies Same<T.MemoriesResponse, Body<typeof runMemories>>,
  searches: true satisfies Same<T.SearchesResponse, Body<typeof runSearches>>,
  blobs: true satisfies Same<T.BlobsResponse, Body<typeof runBlobs>>,
}

test('the story tab bodies the client reads match what the server builds', () => {
  assert.deepEqual(Object.keys(agreements).sort(), [
    'audit',
    'blobs',
    'conversations',
    'memories',
    'searches',
    'timeline',
  ])
})
