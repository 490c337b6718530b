/**
 * The API's route handlers, imported when first asked for: after the test file has pointed the
 * configuration at its own engine. Names follow the resource; a block's writes are put, del, restore.
 */
export async function apiRoutes() {
  const block = await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route')
  return {
    login: (await import('../../app/api/auth/login/route')).POST,
    logout: (await import('../../app/api/auth/logout/route')).POST,
    runs: (await import('../../app/api/runs/route')).GET,
    analytics: (await import('../../app/api/runs/analytics/route')).GET,
    changes: (await import('../../app/api/runs/changes/route')).GET,
    run: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/route')).GET,
    blocks: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/route')).GET,
    block: block.GET,
    put: block.PUT,
    del: block.DELETE,
    restore: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore/route')).POST,
    timeline: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/timeline/route')).GET,
    conversations: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/conversations/route')).GET,
    memories: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/memories/route')).GET,
    searches: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/searches/route')).GET,
    blobs: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blobs/route')).GET,
    audit: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route')).GET,
    exportDoc: (await import('../../app/api/runs/[org]/[namespace]/[agent]/[runId]/export/route')).GET,
  }
}
