/**
 * The run index (see lib/derived/): tables that hold the runs list in list order, each run's
 * writer identities and its latest checkpoints, derived in batches off the agents' write path. The list read from it
 * is built beside this file (run-set.ts).
 */
import { getConfig } from '../config'
import { runIndexNames, type RunIndexNames } from '../derived/names'
import { derivedReady } from '../derived/derive'

export function indexNames(): RunIndexNames {
  return runIndexNames(getConfig().databases.runs)
}

/**
 * True once the index is installed and derived once (its marker is created last). A caller about to
 * read derived data gets it current first when this process wrote since the last batch (see
 * lib/derived/derive.ts, ensureFresh).
 */
export async function runIndexReady(signal?: AbortSignal): Promise<boolean> {
  return derivedReady(indexNames().meta, signal)
}
