import { z } from 'zod'

/**
 * Values as Loom's rows hold them: the owner columns every row schema here starts with, UInt64
 * versions and characters as `char_limit` counts them. Read by the row schemas beside this file,
 * by Loom's write semantics (lib/loom) and by the browser's editor, so it imports nothing but zod.
 */

/** A run and the identity its row was written under, as the Loom tables name the columns. */
export const ownerColumns = {
  org: z.string(),
  namespace: z.string(),
  agent: z.string(),
  user_id: z.string(),
  session_id: z.string(),
  run_id: z.string(),
}

/** UInt64 versions travel as decimal strings; arithmetic is done in BigInt. */
export const versionString = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String)

/** Characters as Loom counts them: Unicode code points. */
export function charCount(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}
