import { and, trusted, type Sql } from '../clickhouse/sql'
import type { RunRef } from '../loom/identity'
import { runScope } from '../loom/scope'
import { wmRunScope } from './wm-run-scope'

/**
 * One run's working-memory rows, narrowed to the identities the run index saw it write under when
 * the index is installed. The index's condition names the run's placeholders without their values;
 * joining it to `runScope` binds them, so the fragment carries every value it needs.
 */
export async function workingMemoryRunScope(run: RunRef, signal?: AbortSignal): Promise<Sql> {
  return and([runScope(run), trusted(await wmRunScope(signal))])
}
