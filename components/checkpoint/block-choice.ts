import type { Block, BlockSummary } from '@/lib/api/types'

export type BlockChoice = { blockKey: string; userId: string; sessionId: string }

export type IdentityGroup<B extends BlockSummary = Block> = {
  userId: string
  sessionId: string
  newest: string
  blocks: B[]
}

/** How an identity value reads in a sentence; unset values are stored as ''. */
export function idValue(v: string): string {
  return v === '' ? '(unset)' : v
}

export function sameChoice(a: BlockChoice, b: BlockChoice): boolean {
  return a.blockKey === b.blockKey && a.userId === b.userId && a.sessionId === b.sessionId
}

/** Blocks grouped by (user_id, session_id), the most recently written identity first, checkpoint first in each. */
export function groupByIdentity<B extends BlockSummary>(blocks: readonly B[]): IdentityGroup<B>[] {
  const groups = new Map<string, IdentityGroup<B>>()
  for (const b of blocks) {
    const key = JSON.stringify([b.userId, b.sessionId])
    const g = groups.get(key) ?? { userId: b.userId, sessionId: b.sessionId, newest: b.updatedAt, blocks: [] }
    g.blocks.push(b)
    if (Date.parse(b.updatedAt) > Date.parse(g.newest)) g.newest = b.updatedAt
    groups.set(key, g)
  }
  const byKey = (a: B, b: B) =>
    a.blockKey === 'checkpoint'
      ? -1
      : b.blockKey === 'checkpoint'
        ? 1
        : a.blockKey < b.blockKey
          ? -1
          : a.blockKey > b.blockKey
            ? 1
            : 0
  return [...groups.values()]
    .map((g) => ({ ...g, blocks: [...g.blocks].sort(byKey) }))
    .sort((a, b) => Date.parse(b.newest) - Date.parse(a.newest))
}

/** The checkpoint block of the newest identity that has one, else the newest identity's first block. */
export function defaultChoice(groups: readonly IdentityGroup<BlockSummary>[]): BlockChoice | null {
  const withCheckpoint = groups.find((g) => g.blocks.some((b) => b.blockKey === 'checkpoint'))
  const g = withCheckpoint ?? groups[0]
  if (!g) return null
  const b = g.blocks[0]
  return { blockKey: b.blockKey, userId: g.userId, sessionId: g.sessionId }
}
