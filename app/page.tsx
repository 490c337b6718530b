import type { Metadata } from 'next'
import { Suspense } from 'react'
import { RunsView } from '@/components/runs/runs-view'

export const metadata: Metadata = { title: { absolute: 'Runs · Loom Runs' } }

export default function RunsPage() {
  return (
    <Suspense fallback={<p className="muted">Loading runs…</p>}>
      <RunsView />
    </Suspense>
  )
}
