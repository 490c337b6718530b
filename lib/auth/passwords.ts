import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { AppError } from '../errors'

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

/** Password checks that run at once: the thread pool they share with the engine keeps the rest. */
export const PASSWORD_CHECKS_AT_ONCE = 1
/** Checks that may wait for their turn; past that a check is refused with 429 at once. */
export const PASSWORD_QUEUE_MAX = 8

type Turns = { running: number; waiting: (() => void)[]; maxRunning: number; refused: number }

const g = globalThis as typeof globalThis & { __loomRunsDummyHash?: Promise<string>; __loomRunsPasswordTurns?: Turns }
const turns = (): Turns => (g.__loomRunsPasswordTurns ??= { running: 0, waiting: [], maxRunning: 0, refused: 0 })

/** How the password checks' own queue is used (for tests and diagnostics). */
export function passwordCheckStats(): Readonly<Pick<Turns, 'running' | 'maxRunning' | 'refused'>> & {
  waiting: number
} {
  const t = turns()
  return { running: t.running, maxRunning: t.maxRunning, refused: t.refused, waiting: t.waiting.length }
}

/**
 * Runs one password check on the checks' own small queue: a burst of wrong credentials waits
 * there (or is refused once it is full) instead of filling the thread pool that reads share.
 */
async function onPasswordQueue<T>(check: () => Promise<T>): Promise<T> {
  const t = turns()
  if (t.running >= PASSWORD_CHECKS_AT_ONCE) {
    if (t.waiting.length >= PASSWORD_QUEUE_MAX) {
      t.refused++
      throw new AppError('rate_limited', 'Too many password checks at once; try again in a second', {
        details: { retryAfter: 1 },
      })
    }
    await new Promise<void>((resolve) => t.waiting.push(resolve))
  } else t.running++
  t.maxRunning = Math.max(t.maxRunning, t.running)
  try {
    return await check()
  } finally {
    // The turn passes to the next waiting check, or is given back.
    const next = t.waiting.shift()
    if (next) next()
    else t.running--
  }
}

/** Constant-time comparison of a password against a stored scrypt hash (either format). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const actual = await onPasswordQueue(() => scryptAsync(password, parsed.salt, parsed.hash.length, parsed))
  return timingSafeEqual(parsed.hash, actual)
}

/**
 * A hash of a random password with today's cost, checked for names that do not exist so a
 * wrong name takes as long as a wrong password.
 */
export function dummyHash(): Promise<string> {
  g.__loomRunsDummyHash ??= hashPassword(randomBytes(24).toString('base64'))
  return g.__loomRunsDummyHash
}
