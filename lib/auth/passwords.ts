import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const KEY_LENGTH = 32
/** Cost of new hashes; stored in each hash, so raising it later leaves old hashes valid. */
export const SCRYPT_COST = { N: 32768, r: 8, p: 1 } as const
/** What hashes without their cost (the first format) were made with: Node's defaults. */
const LEGACY_COST = { N: 16384, r: 8, p: 1 } as const

type Parsed = { N: number; r: number; p: number; salt: Buffer; hash: Buffer }

function scryptAsync(password: string, salt: Buffer, keylen: number, cost: { N: number; r: number; p: number }) {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r }
  // The libuv thread pool does the work, so a password check never blocks the event loop.
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64), the form LOOM_RUNS_USERS takes. */
export async function hashPassword(password: string, cost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scryptAsync(password, salt, KEY_LENGTH, cost)
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

function parseHash(stored: string): Parsed | null {
  const parts = stored.split('$')
  if (parts[0] !== 'scrypt') return null
  let cost: { N: number; r: number; p: number } = LEGACY_COST
  let rest = parts.slice(1)
  if (parts.length === 6) {
    cost = { N: Number(parts[1]), r: Number(parts[2]), p: Number(parts[3]) }
    rest = parts.slice(4)
  } else if (parts.length !== 3) return null
  const { N, r, p } = cost
  // N a power of two, and bounds that keep one check under ~1 GB of memory.
  if (!Number.isInteger(N) || N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0) return null
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null
  const [saltB64, hashB64] = rest
  if (!saltB64 || !hashB64) return null
  const hash = Buffer.from(hashB64, 'base64')
  if (hash.length < 16) return null
  return { N, r, p, salt: Buffer.from(saltB64, 'base64'), hash }
}

/** Constant-time comparison of a password against a stored scrypt hash (either format). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const actual = await scryptAsync(password, parsed.salt, parsed.hash.length, parsed)
  return timingSafeEqual(parsed.hash, actual)
}

const g = globalThis as typeof globalThis & { __loomRunsDummyHash?: Promise<string> }

/**
 * A hash of a random password with today's cost, checked for names that do not exist so a
 * wrong name takes as long as a wrong password.
 */
export function dummyHash(): Promise<string> {
  g.__loomRunsDummyHash ??= hashPassword(randomBytes(24).toString('base64'))
  return g.__loomRunsDummyHash
}
