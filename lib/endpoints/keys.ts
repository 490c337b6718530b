/** A run's identity, as the keys name it (the same fields as a RunRef). */
type RunRef = { org: string; namespace: string; agent: string; runId: string }

/** A runs-list filter set as part of a key; `flag` is a sorted list. */
type Filters = Record<string, string | readonly string[] | undefined>

/** Every React Query key comes from here, so invalidation by prefix always matches. */
export const runKeys = {
  all: ['runs'] as const,
  lists: () => [...runKeys.all, 'list'] as const,
  list: (filters: Filters) => [...runKeys.lists(), filters] as const,
  details: () => [...runKeys.all, 'detail'] as const,
  detail: (run: RunRef) => [...runKeys.details(), run.org, run.namespace, run.agent, run.runId] as const,
  blocks: (run: RunRef) => [...runKeys.detail(run), 'blocks'] as const,
  /** The content-free list; under `blocks` so every invalidation of the blocks reaches it too. */
  blockSummaries: (run: RunRef) => [...runKeys.blocks(run), '$summaries'] as const,
  block: (run: RunRef, blockKey: string, userId: string, sessionId: string) =>
    [...runKeys.blocks(run), blockKey, userId, sessionId] as const,
  /** Under the block's key: a write to the block invalidates its previews too. */
  replay: (run: RunRef, blockKey: string, userId: string, sessionId: string, toVersion: string | null) =>
    [...runKeys.block(run, blockKey, userId, sessionId), 'replay', toVersion] as const,
  audit: (run: RunRef) => [...runKeys.detail(run), 'audit'] as const,
  /** The console-wide audit page; under `all` so a write's invalidation of every run reaches it. */
  consoleAudit: (params: string) => [...runKeys.all, 'console-audit', params] as const,
  timeline: (run: RunRef, limit?: number) => [...runKeys.detail(run), 'timeline', limit ?? null] as const,
  conversations: (run: RunRef) => [...runKeys.detail(run), 'conversations'] as const,
  /** A long transcript's first turns, read with the page (no route asks for them alone). */
  conversationsPreview: (run: RunRef) => [...runKeys.detail(run), 'conversations', '$preview'] as const,
  memories: (run: RunRef) => [...runKeys.detail(run), 'memories'] as const,
  searches: (run: RunRef) => [...runKeys.detail(run), 'searches'] as const,
  blobs: (run: RunRef) => [...runKeys.detail(run), 'blobs'] as const,
  /** Summary charts of the runs page, per filter set (no cursor or limit). */
  analyticsAll: () => [...runKeys.all, 'analytics'] as const,
  analytics: (filters: Filters) => [...runKeys.analyticsAll(), filters] as const,
  /** The live-refresh poll of the runs page, per filter set; its data holds the next `since`. */
  changes: (filters: Filters) => [...runKeys.all, 'changes', filters] as const,
  /** What operators and setup changed over a time range; under `all`, so a write refreshes it. */
  events: (query: Filters) => [...runKeys.all, 'events', query] as const,
  /** Two runs side by side (the query values as sent). */
  compare: (a: string, b: string | null) => [...runKeys.all, 'compare', a, b] as const,
  /** Recent batches and undos; under `all` so a batch's invalidation of every run reaches it. */
  batches: () => [...runKeys.all, 'batches'] as const,
  /** Suggestions for one of the runs filters (field, prefix and the other filters). */
  facets: (query: Filters) => [...runKeys.all, 'facets', query] as const,
}

/** Saved views (not under runs: a batch's invalidation does not refetch them). */
export const viewKeys = { all: ['views'] as const, deliveries: (id: string) => ['views', id, 'deliveries'] as const }

export const healthKeys = { all: ['health'] as const, freshness: ['health', 'freshness'] as const }
export const authKeys = { all: ['auth'] as const, me: () => [...authKeys.all, 'me'] as const }
export const schemaKeys = { all: ['schema'] as const, report: () => [...schemaKeys.all, 'report'] as const }
