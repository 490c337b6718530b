/** The items that share the highest positive value, in their order (none when every value is 0). */
export function peaks<T>(items: readonly T[], value: (t: T) => number): T[] {
  let best = 0
  for (const t of items) best = Math.max(best, value(t))
  return best > 0 ? items.filter((t) => value(t) === best) : []
}

function joinNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/**
 * "Most on 27 Nov: 3 runs." for one peak; a tie is told as a tie, never as one arbitrary winner:
 * "Most on 27 Nov and 29 Nov: 1 run each." or, past three, "At most 1 run a day, on 4 days.".
 */
export function peakSentence(
  names: string[],
  amount: string,
  opts: { lead: string; unit: string; units: string },
): string {
  if (names.length === 0) return ''
  if (names.length === 1) return `${opts.lead} ${names[0]}: ${amount}.`
  if (names.length <= 3) return `${opts.lead} ${joinNames(names)}: ${amount} each.`
  return `At most ${amount} a ${opts.unit}, on ${names.length} ${opts.units}.`
}
