/**
 * A small seeded PRNG (mulberry32) so the demo is the same for the same seed.
 * `fork(label)` derives an independent stream, so one scenario drawing more numbers
 * never shifts the ids or timings of another.
 */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  static from(seed: number, label: string): Rng {
    return new Rng(hashLabel(seed, label))
  }

  fork(label: string): Rng {
    return new Rng(hashLabel(this.nextUint32(), label))
  }

  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }

  /** [0, 1) */
  next(): number {
    return this.nextUint32() / 4294967296
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  float(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)]
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let out = ''
    while (out.length < n) out += this.nextUint32().toString(16).padStart(8, '0')
    return out.slice(0, n)
  }
}

/** FNV-1a over the label, mixed with the seed. */
export function hashLabel(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  // One mulberry step so nearby seeds give unrelated streams.
  return new Rng(h).nextUint32()
}
