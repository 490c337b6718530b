import { NotFoundPanel } from '@/components/ui/not-found-panel'

export default function RunNotFound() {
  return (
    <NotFoundPanel title="Run not found">
      No run with this id exists under this org, namespace and agent. It may have been written under another agent, or
      the link is wrong.
    </NotFoundPanel>
  )
}
