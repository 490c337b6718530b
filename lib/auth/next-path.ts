/**
 * Where to go after logging in: the `next` parameter, kept only when it is a plain path of the
 * console's own. Browsers read `/\evil.example` and `/<TAB>/evil.example` as `//evil.example`, and
 * `/.//evil.example` resolves to the path `//evil.example`, which a browser then takes for another
 * host: so the text must be a single-slash path without control characters, and so must the path
 * it resolves to, decoded (`/%2F%2Fevil` is refused too).
 */
const CONTROL = /[\u0000-\u001f\u007f]/
/** A path a browser would read as the start of another host: two slashes, in either direction. */
const HOST_LIKE = /^[/\\]{2}/

export function safeNextPath(next: string | null | undefined, origin: string): string {
  if (!next || CONTROL.test(next) || !next.startsWith('/') || HOST_LIKE.test(next)) return '/'
  let url: URL
  let decoded: string
  try {
    url = new URL(next, origin)
    decoded = decodeURIComponent(url.pathname)
  } catch {
    return '/'
  }
  if (
    url.origin !== new URL(origin).origin ||
    HOST_LIKE.test(url.pathname) ||
    HOST_LIKE.test(decoded) ||
    CONTROL.test(decoded)
  )
    return '/'
  return `${url.pathname}${url.search}${url.hash}`
}
