import type { Metadata } from 'next'
import { Suspense } from 'react'
import { AuditView } from '@/components/audit/audit-view'

export const metadata: Metadata = { title: { absolute: 'Audit · Loom Runs' } }

export default function AuditPage() {
  return (
    <Suspense>
      <AuditView />
    </Suspense>
  )
}
