import type { Metadata } from 'next'
import { NotFoundPanel } from '@/components/ui/not-found-panel'

export const metadata: Metadata = { title: 'Not found' }

/** The console's own 404 for any path it does not serve. */
export default function NotFound() {
  return (
    <NotFoundPanel title="Page not found">
      The console has no page here. A run&apos;s address is <code>/runs/org/namespace/agent/run_id</code>.
    </NotFoundPanel>
  )
}
