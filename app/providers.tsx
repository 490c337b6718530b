'use client'

import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { NuqsAdapter } from 'nuqs/adapters/next/app'
import { useEffect, useState, type ReactNode } from 'react'
import { Toaster } from 'sonner'
import { ApiRequestError } from '@/lib/api-client/fetch-json'
import { meQueryOptions } from '@/lib/api-client/auth'
import type { Me } from '@/lib/api/types'

export function Providers({ children, me }: { children: ReactNode; me: Me }) {
  const [client] = useState(() => {
    const qc = new QueryClient({
      defaultOptions: {
        queries: {
          staleTime: 5_000,
          refetchOnWindowFocus: false,
          // Client errors (4xx) will not fix themselves; retry only what might.
          retry: (failures, err) =>
            failures < 2 && !(err instanceof ApiRequestError && err.status >= 400 && err.status < 500),
        },
      },
    })
    // The server rendered the page knowing who this is; the client starts from the same answer.
    qc.setQueryData(meQueryOptions().queryKey, me)
    return qc
  })
  // A marker for tools and tests: the server's HTML is now interactive (handlers attached).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <QueryClientProvider client={client}>
      <NuqsAdapter>{children}</NuqsAdapter>
      <Toaster position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  )
}
