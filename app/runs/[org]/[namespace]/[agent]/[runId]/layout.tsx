import type { ReactNode } from 'react'
import { runDetailForPage, runFrom, type RunParams } from './_components/run-for-page'

/**
 * Checks that the run exists before anything streams. No loading state wraps the run page: the
 * response's status goes out with its first bytes, so an unknown run answers 404, and the header
 * (goal, status, figures) is in the first HTML the browser paints instead of being revealed later
 * by a streamed boundary. The open tab's data streams behind the page's own Suspense boundary.
 */
export default async function RunLayout({ params, children }: { params: Promise<RunParams>; children: ReactNode }) {
  const run = await runFrom(params)
  await runDetailForPage(run.org, run.namespace, run.agent, run.runId)
  return children
}
