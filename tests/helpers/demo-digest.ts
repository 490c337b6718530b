import { createHash } from 'node:crypto'
import { getClient } from '../../lib/clickhouse/client'
import { tableNames } from '../../lib/loom/tables'

/**
 * A digest of every table the demo writes, independent of physical layout: ReplacingMergeTree
 * tables are read with FINAL (merges happen at unknown times), rows are sorted, capture
 * times and TTL-expired blobs (which merges may drop) are left out.
 */
export async function digestDemoTables(): Promise<Record<string, { rows: number; sha256: string }>> {
  const t = tableNames()
  const queries: Record<string, string> = {
    workingMemory: `SELECT * FROM ${t.workingMemory} FINAL`,
    history: `SELECT * EXCEPT (captured_at) FROM ${t.history}`,
    runs: `SELECT * FROM ${t.runs} FINAL`,
    conversations: `SELECT * FROM ${t.conversations} FINAL`,
    turns: `SELECT * FROM ${t.turns}`,
    memory: `SELECT * FROM ${t.memory} FINAL`,
    contextBlobs: `SELECT * FROM ${t.contextBlobs} WHERE expires_at > now64(3)`,
    searchTrace: `SELECT * FROM ${t.searchTrace}`,
    audit: `SELECT * FROM ${t.audit}`,
  }
  const out: Record<string, { rows: number; sha256: string }> = {}
  for (const [name, sql] of Object.entries(queries)) {
    const rs = await getClient().query({ query: `${sql} ORDER BY ALL`, format: 'JSONEachRow' })
    const text = await rs.text()
    out[name] = {
      rows: text.split('\n').filter((l) => l.trim() !== '').length,
      sha256: createHash('sha256').update(text).digest('hex'),
    }
  }
  return out
}
