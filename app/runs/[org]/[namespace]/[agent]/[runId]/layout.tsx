import type { ReactNode } from 'react'
import { runDetailForPage, runFrom, type RunParams } from './_components/run-for-page'

/**
 * Checks that the run exists before anything streams: the page's loading state ((tabs)/loading.tsx,
 * a level below so that it does not wrap this check) sends the response's status with its first
 * bytes, and an unknown run must answer 404.
 */
export default async function RunLayout({ params, children }: { params: Promise<RunParams>; children: ReactNode }) {
  const run = await runFrom(params)
  await runDetailForPage(run.org, run.namespace, run.agent, run.runId)
  return children
}
