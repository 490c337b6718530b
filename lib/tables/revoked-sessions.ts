import { columns, DATETIME, engine, type TableDeclaration } from './declaration'

/** Login sessions ended on the server (logout): refused until they would have expired anyway. */
export const revokedSessionsTable = {
  key: 'revokedSessions',
  group: 'dashboard',
  purpose:
    'Login sessions ended by logout, kept until they would have expired, so a copied cookie stays refused after a restart.',
  whenMissing: 'warning',
  disables:
    'Logouts are remembered only by the running server process: after a restart a logged-out cookie is accepted until it expires',
  columns: columns(`
    session_id String
    expires_at ${DATETIME}
    revoked_at ${DATETIME}`),
  engine: engine('MergeTree'),
  sortingKey: ['session_id'],
  skipIndexes: [],
  ttl: 'toDateTime(expires_at)',
} satisfies TableDeclaration
