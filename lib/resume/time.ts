/** Time helpers for resume explanations (UTC throughout). */

/** Milliseconds of an ISO time; a zone-less `YYYY-MM-DD hh:mm:ss` is read as UTC. NaN when unreadable. */
export function timeMs(iso: string): number {
  const t = iso.trim()
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) return Date.parse(`${t.replace(' ', 'T')}Z`)
  return Date.parse(t)
}

/** `2026-11-22 10:10:04 UTC`; the input unchanged when it is not a time. */
export function formatUtc(iso: string): string {
  const t = timeMs(iso)
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** `45s`, `3m 5s`, `2h 0m`, `3d 4h`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${s % 60}s`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h}h ${m % 60}m`
  return `${Math.floor(h / 24)}d ${h % 24}h`
}
