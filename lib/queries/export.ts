import type { RunRef } from '../loom/identity'
import { runAudit } from './audit'
import { runBlobs } from './blobs'
import { getBlockDetail } from './block-detail'
import { runConversations } from './conversations'
import { runMemories } from './memories'
import { getRunDetail } from './run-detail'
import { runSearches } from './searches'
import { MAX_TIMELINE_LIMIT, runTimeline } from './timeline'
import { runBlocks } from './working-memory'

/** One JSON document with everything the console knows about a run. */
export async function exportRun(run: RunRef, signal?: AbortSignal) {
  const detail = await getRunDetail(run, signal)
  const blocks = await runBlocks(run, signal)
  const blockDetails = []
  for (const b of blocks) {
    const d = await getBlockDetail({ ...run, userId: b.userId, sessionId: b.sessionId, blockKey: b.blockKey }, signal)
    blockDetails.push({ userId: b.userId, sessionId: b.sessionId, blockKey: b.blockKey, versions: d.versions, history: d.history, resume: { value: d.resume.value, fromVersion: d.resume.fromVersion, points: d.resume.points, explanation: d.resume.explanation }, flags: d.flags })
  }
  const [timeline, conversations, memories, searches, blobs, audit] = [
    await runTimeline(run, MAX_TIMELINE_LIMIT, signal),
    await runConversations(run, signal),
    await runMemories(run, signal),
    await runSearches(run, signal),
    await runBlobs(run, signal),
    await runAudit(run, signal),
  ]
  return {
    exportedAt: new Date().toISOString(),
    ...detail,
    blocks,
    blockDetails,
    timeline,
    conversations: conversations.conversations,
    memories,
    searches: searches.searches,
    blobs,
    audit: audit.entries,
  }
}
