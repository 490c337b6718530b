'use client'

import { useState } from 'react'
import type { BatchAction } from '@/lib/api-client/batches'
import type { RunsFilters } from '@/lib/runs-search'
import { usePermissions } from '../editor/use-permissions'
import { BatchDialog } from './batch-dialog'
import styles from './batch.module.css'
import { Button } from '../ui/button'

/** The runs list's batch actions over its current filter; only for operators who may write. */
export function BatchActions({ filters }: { filters: RunsFilters }) {
  const { canWrite } = usePermissions()
  const [open, setOpen] = useState<BatchAction | null>(null)
  if (!canWrite) return null
  return (
    <div className={styles.actions} role="group" aria-label="Batch actions on the filtered runs">
      <span className="small muted">Filtered runs:</span>
      <Button onClick={() => setOpen('clear')}>Clear checkpoints…</Button>
      <Button onClick={() => setOpen('restore')}>Restore checkpoints as of…</Button>
      {open ? <BatchDialog key={open} action={open} filters={filters} onClose={() => setOpen(null)} /> : null}
    </div>
  )
}
