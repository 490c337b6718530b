/**
 * Typed failures the route layer maps onto the HTTP contract. Each keeps the
 * underlying cause so logs show where it came from.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'misdirected'
  | 'rate_limited'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'run_active'
  | 'too_large'
  | 'unavailable'
  | 'timeout'
  | 'internal'

const STATUS: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  misdirected: 421,
  rate_limited: 429,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  run_active: 409,
  too_large: 413,
  unavailable: 503,
  timeout: 504,
  internal: 500,
}

export class AppError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, { cause: options?.cause })
    this.name = 'AppError'
    this.status = STATUS[code]
    this.details = options?.details
  }
  readonly details?: Record<string, unknown>
}

export const invalid = (message: string, cause?: unknown) => new AppError('invalid', message, { cause })
export const notFound = (message: string) => new AppError('not_found', message)
export const forbidden = (message: string) => new AppError('forbidden', message)
export const tooLarge = (message: string, details?: Record<string, unknown>) =>
  new AppError('too_large', message, { details })
