/**
 * Where to go after logging in: the `next` parameter resolved against the page's own origin,
 * kept only if it stays there. Browsers read `/\evil.example` and `/<TAB>/evil.example` as
 * `//evil.example`, so a prefix check on the raw text is not enough; URL parsing is.
 */
export function safeNextPath(next: string | null | undefined, origin: string): string {
  if (!next) return '/'
  let url: URL
  try {
    url = new URL(next, origin)
  } catch {
    return '/'
  }
  if (url.origin !== new URL(origin).origin) return '/'
  return `${url.pathname}${url.search}${url.hash}`
}
