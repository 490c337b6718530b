import type { Conversation, Turn } from '@/lib/api/types'

/** One conversation ready to show and search: turns in order, totals, and a lowercase haystack per turn. */
export type PreparedConversation = {
  conv: Conversation
  turns: Turn[]
  /** `role \n toolName \n content`, lowercased once so each keystroke is a plain substring test. */
  haystacks: string[]
  tokensIn: number
  tokensOut: number
  spend: number
}

export function prepareConversations(convs: readonly Conversation[]): PreparedConversation[] {
  return convs.map((conv) => {
    const turns = [...conv.turns].sort((a, b) => a.turnIndex - b.turnIndex)
    let tokensIn = 0
    let tokensOut = 0
    let spend = 0
    const haystacks = turns.map((t) => {
      tokensIn += t.inputTokens
      tokensOut += t.outputTokens
      spend += t.costUsd
      return `${t.role}\n${t.toolName}\n${t.content}`.toLowerCase()
    })
    return { conv, turns, haystacks, tokensIn, tokensOut, spend }
  })
}

/** Positions of the turns that contain `query` (case-insensitive); every position when the query is blank. */
export function matchingTurns(prepared: PreparedConversation, query: string): number[] {
  const q = query.trim().toLowerCase()
  const out: number[] = []
  for (let i = 0; i < prepared.haystacks.length; i++) if (!q || prepared.haystacks[i].includes(q)) out.push(i)
  return out
}
