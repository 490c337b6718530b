import type { Metadata } from 'next'
import { Suspense } from 'react'
import { RunView } from '@/components/run/run-view'

type Params = { org: string; namespace: string; agent: string; runId: string }

// Page params arrive still percent-encoded (route-handler params arrive decoded).
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

async function runFrom(params: Promise<Params>) {
  const p = await params
  return { org: decode(p.org), namespace: decode(p.namespace), agent: decode(p.agent), runId: decode(p.runId) }
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await runFrom(params)
  return { title: `${p.runId} · ${p.agent}` }
}

export default async function RunPage({ params }: { params: Promise<Params> }) {
  const p = await runFrom(params)
  return (
    <Suspense fallback={<p className="muted">Loading run…</p>}>
      <RunView runRef={{ org: p.org, namespace: p.namespace, agent: p.agent, runId: p.runId }} />
    </Suspense>
  )
}
