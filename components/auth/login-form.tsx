'use client'

import { useSearchParams } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { loginRequest } from '@/lib/api-client/auth'
import { ApiRequestError } from '@/lib/api-client/fetch-json'
import { safeNextPath } from '@/lib/auth/next-path'
import { buttonClass } from '../ui/button'
import styles from './login-form.module.css'

export function LoginForm() {
  const params = useSearchParams()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    try {
      await loginRequest({ name: form.get('name'), password: form.get('password') })
      window.location.assign(safeNextPath(params.get('next'), window.location.origin))
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : 'Login failed')
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} className={`panel stack ${styles.form}`} aria-label="Log in">
      <h1>Log in to Loom Runs</h1>
      <label className="field">
        Name
        <input name="name" autoComplete="username" required autoFocus />
      </label>
      <label className="field">
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error ? (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" className={buttonClass('primary')} disabled={busy}>
        {busy ? 'Logging in…' : 'Log in'}
      </button>
    </form>
  )
}
