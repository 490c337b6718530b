// JSON that ClickHouse wrote, handled as bytes: no decoding, parsing or re-encoding in Node.

/**
 * A JSON document ClickHouse already wrote, in pieces (Node's own text around ClickHouse's bytes):
 * a route sends it as it is, without parsing or decoding it in Node.
 */
export class JsonText {
  readonly parts: (string | Uint8Array)[]
  constructor(...parts: (string | Uint8Array)[]) {
    this.parts = parts
  }
  /** The document as one body (Buffer.concat always allocates a plain ArrayBuffer). */
  bytes(): Uint8Array<ArrayBuffer> {
    return Buffer.concat(this.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))) as Uint8Array<ArrayBuffer>
  }
}

const SPACE = new Set([0x20, 0x0a, 0x0d, 0x09])

/** `buf` without leading and trailing JSON whitespace (a view, not a copy). */
export function trimBytes(buf: Buffer): Buffer {
  let from = 0
  let to = buf.length
  while (from < to && SPACE.has(buf[from])) from++
  while (to > from && SPACE.has(buf[to - 1])) to--
  return buf.subarray(from, to)
}

/** True for a JSON array with no element (`[]`, with any whitespace). */
export function isEmptyJsonArray(buf: Buffer): boolean {
  const t = trimBytes(buf)
  return (
    t.length >= 2 && t[0] === 0x5b && trimBytes(t.subarray(1, t.length - 1)).length === 0 && t[t.length - 1] === 0x5d
  )
}
