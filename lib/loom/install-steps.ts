import { getClient } from '../clickhouse/client'
import { classifyClickHouseError, command } from '../clickhouse/query'

type Step = (step: string) => void

/** A one-off statement over the existing rows (backfill, merge): not bound by the time budget of reads. */
export async function oneOff(sql: string): Promise<void> {
  try {
    await getClient().command({ query: sql, clickhouse_settings: { max_execution_time: 0 } })
  } catch (err) {
    throw classifyClickHouseError(err)
  }
}

/**
 * The common steps of installing one of the dashboard's derived structures (run index, facets):
 * drop what an earlier or unfinished install left, create the tables and views, backfill them.
 * The caller creates its marker afterwards, so readers never see a half-built structure.
 */
export async function installObjects(parts: {
  before: Set<string>
  drop: string[]
  objects: { name: string; sql: string }[]
  backfill: { name: string; sql: string }[]
  onStep?: Step
}): Promise<{ created: string[]; dropped: string[] }> {
  const dropped: string[] = []
  for (const name of parts.drop) {
    if (!parts.before.has(name)) continue
    parts.onStep?.(`drop ${name} (left by an earlier version or an unfinished install)`)
    await command(`DROP TABLE IF EXISTS ${name}`)
    dropped.push(name)
  }
  const created: string[] = []
  for (const s of parts.objects) {
    parts.onStep?.(`create ${s.name}`)
    await command(s.sql)
    created.push(s.name)
  }
  for (const b of parts.backfill) {
    parts.onStep?.(`backfill ${b.name}`)
    await oneOff(b.sql)
  }
  return { created, dropped }
}
