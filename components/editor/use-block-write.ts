'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
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
