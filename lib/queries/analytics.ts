/**
 * Run-history analytics for the runs page, over exactly the runs the list shows for a filter:
 * from the run rollup's running totals when it can answer, else by direct queries over the run set.
 */
import type { RunsFilter } from '../run-set/filter'
import { directParts } from './analytics-direct'
import { rollupLevel, rollupReady } from './analytics-rollup'
import { rollupParts } from './analytics-rollup-parts'
import { shapeAnalytics } from './analytics-shaping'
import type { RunsAnalytics } from './analytics-types'
import { runIndexReady } from '../run-set/run-index'

/**
 * The analytics for a filter: from the run rollup when it is installed and the filter allows
 * (`servedFrom: 'aggregates'`), else by the direct queries over the filter's runs (`'query'`).
 * `direct`: skip the rollup (the tests compare both).
 */
export async function runsAnalytics(
  f: RunsFilter,
  signal?: AbortSignal,
  now = Date.now(),
  options: { direct?: boolean } = {},
): Promise<RunsAnalytics> {
  const level = options.direct ? null : rollupLevel(f)
  const fromRollup =
    level !== null && (await runIndexReady(signal)) && (await rollupReady(signal))
      ? await rollupParts(f, level, signal)
      : null
  const parts = fromRollup ?? (await directParts(f, now, signal))
  return shapeAnalytics(parts, { from: f.from, to: f.to, now }, fromRollup ? 'aggregates' : 'query')
}
