'use client'

import { useMutation, useQuery } from '@tanstack/react-query'
import { logoutRequest, meQueryOptions } from '@/lib/api-client/auth'
import { links } from '@/lib/links'
import { Button } from '../ui/button'

/** The signed-in user and a way out; nothing when the console has no users (everyone is `local`). */
export function UserMenu() {
  const me = useQuery(meQueryOptions())
  const logout = useMutation({
    mutationFn: logoutRequest,
    // A full navigation: no page of the console stays on screen after the session ended.
    onSuccess: () => window.location.replace(links.login()),
  })
  const user = me.data?.authRequired ? me.data.user : null
  if (!user) return null
  return (
    <span className="user-menu">
      <span className="small muted" title={`Signed in as ${user.name} (${user.role})`}>
        {user.name}
        <span className="user-menu-role"> · {user.role}</span>
      </span>
      <Button size="small" onClick={() => logout.mutate()} disabled={logout.isPending}>
        {logout.isPending ? 'Logging out…' : 'Log out'}
      </Button>
      {logout.isError ? (
        <span role="alert" className="small text-bad">
          Logout failed: {logout.error.message}
        </span>
      ) : null}
    </span>
  )
}
