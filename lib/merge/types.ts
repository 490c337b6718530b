/** Which side's change an operator keeps for one conflict. */
export type Side = 'mine' | 'theirs'

/**
 * How the three contents were merged:
 * - `json`: per path (objects by key, arrays as sequences or by a stable element key);
 * - `ids`: id lists as sets of added and removed ids (never conflicts);
 * - `text`: per line hunk (diff3);
 * - `whole`: the contents cannot be merged piecewise (one side cleared the block, or the sides
 *   are different kinds of content), so the whole content is one conflict when both changed it.
 */
export type MergeKind = 'json' | 'ids' | 'text' | 'whole'

/** One place where both sides changed the same thing differently. */
export type MergeConflict = {
  /** Stable for the same three inputs: the key of `choices`. */
  id: string
  /** Where: `$.cursor`, `$.items[id="b"]`, `$.steps[2:4]`, `lines 3–4`, `whole content`. */
  label: string
  /** Each side's value there, as text; null when absent there (removed, or not yet added). */
  base: string | null
  theirs: string | null
  mine: string | null
  /** The choice applied, or null while unresolved. */
  resolution: Side | null
}

export type MergeOptions = {
  /** Choices already made, by conflict id. */
  choices?: Readonly<Record<string, Side>>
  /**
   * Text merges only: write each unresolved conflict as conflict markers naming the two sides
   * (for editing by hand) instead of filling it with theirs.
   */
  markers?: { mine: string; theirs: string }
}

export type MergeResult = {
  kind: MergeKind
  /** The merged content: resolved conflicts as chosen, unresolved ones as theirs (or markers). */
  content: string
  conflicts: MergeConflict[]
  /** Conflicts without a choice; the content is final only when this is 0. */
  unresolved: number
}

/** What a merge step records about a conflict and which value it settles on. */
export type ConflictSink = {
  choices: Readonly<Record<string, Side>>
  conflicts: MergeConflict[]
}

export function choose<T>(sink: ConflictSink, conflict: Omit<MergeConflict, 'resolution'>, theirs: T, mine: T): T {
  const resolution = sink.choices[conflict.id] ?? null
  sink.conflicts.push({ ...conflict, resolution })
  return resolution === 'mine' ? mine : theirs
}
