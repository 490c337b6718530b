import type { Metadata } from 'next'
import { Suspense } from 'react'
import { RunView } from '@/components/run/run-view'

type Params = { org: string; namespace: string; agent: string; runId: string }

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await params
  return { title: `${p.runId} · ${p.agent}` }
}

export default async function RunPage({ params }: { params: Promise<Params> }) {
  const p = await params
  return (
    <Suspense fallback={<p className="muted">Loading run…</p>}>
      <RunView runRef={{ org: p.org, namespace: p.namespace, agent: p.agent, runId: p.runId }} />
    </Suspense>
  )
}
