/**
 * The run index (see lib/loom/run-index-ddl.ts): tables that hold the runs list in list order,
 * each run's writer identities and its latest checkpoints, kept on write. The list read from it
 * lives in lib/run-set/.
 */
import { getConfig } from '../config'
import { runIndexNames, type RunIndexNames } from '../loom/run-index-ddl'
import { existingTables } from './schema-presence'

export function indexNames(): RunIndexNames {
  return runIndexNames(getConfig().databases.runs)
}

/** True once the index is installed and backfilled (its meta table is created last). */
export async function runIndexReady(signal?: AbortSignal): Promise<boolean> {
  return (await existingTables(signal)).has(indexNames().meta)
}
