import { onQueryEvent } from '../../lib/clickhouse/query'

/** The SELECT statements sent to ClickHouse while `fn` runs (their SQL, in the order sent). */
export async function statementsSent<T>(fn: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const sent: string[] = []
  const off = onQueryEvent((e) => {
    if (e.kind === 'statement') sent.push(e.query)
  })
  try {
    return { result: await fn(), sent }
  } finally {
    off()
  }
}
