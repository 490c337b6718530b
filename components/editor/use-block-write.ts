'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { ApiRequestError } from '@/lib/api-client/fetch-json'
import { runKeys } from '@/lib/api-client/keys'
import type { WriteResponse } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import type { RunRef } from '@/lib/loom/identity'

/** Outcome of a refused write that the dialog handles itself instead of a toast. */
export type WriteRefusal =
  | { kind: 'conflict'; current: Block | null; message: string }
  | { kind: 'run_active'; message: string }
  | { kind: 'error'; message: string }

export function refusalOf(err: unknown): WriteRefusal {
  if (err instanceof ApiRequestError) {
    const body = err.body as { current?: Block | null } | undefined
    if (err.code === 'conflict') return { kind: 'conflict', current: body?.current ?? null, message: err.message }
    if (err.code === 'run_active') return { kind: 'run_active', message: err.message }
    return { kind: 'error', message: err.message }
  }
  return { kind: 'error', message: err instanceof Error ? err.message : 'The write failed' }
}

/** A console write: on success a toast and a refresh of everything about the run. */
export function useBlockWrite<V>(
  run: RunRef,
  write: (vars: V) => Promise<WriteResponse>,
  success: (r: WriteResponse) => string,
) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: write,
    onSuccess: (r) => {
      if (r.confirmed) toast.success(success(r))
      else toast.warning(r.warning ?? 'Another writer tied or overtook this write')
    },
    // Refresh after refusals too: a 409 means what the page shows is out of date.
    onSettled: () => qc.invalidateQueries({ queryKey: runKeys.detail(run) }),
  })
}

/** What every block write sends besides its own fields: the operator's reason, and the override for a run still writing. */
type WriteBase = { reason: string; force?: boolean }

/**
 * The state every block-write dialog keeps: the reason, the force override, the server's refusal and the
 * write itself. `submit` sends the dialog's own fields with the trimmed reason (and `force` when ticked),
 * calls `onSuccess` when the write lands and keeps the refusal to show when it does not.
 */
export function useWriteForm<B extends WriteBase>(
  run: RunRef,
  request: (body: B) => Promise<WriteResponse>,
  success: (r: WriteResponse) => string,
  initialReason = '',
) {
  const [reason, setReason] = useState(initialReason)
  const [force, setForce] = useState(false)
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const write = useBlockWrite(run, request, success)
  const submit = (fields: Omit<B, keyof WriteBase>, onSuccess: () => void) =>
    write.mutate({ ...fields, reason: reason.trim(), ...(force ? { force: true } : {}) } as B, {
      onSuccess,
      onError: (e) => setRefusal(refusalOf(e)),
    })
  return { reason, setReason, force, setForce, refusal, setRefusal, write, submit }
}
