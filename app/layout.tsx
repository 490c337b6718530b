// First, so every component's CSS Module comes after the global rules and wins where both style an element.
import './globals.css'
import type { Metadata } from 'next'
import { headers } from 'next/headers'
import Link from 'next/link'
import type { ReactNode } from 'react'
import { UserMenu } from '@/components/auth/user-menu'
import { LinkPending } from '@/components/ui/link-pending'
import { ThemeToggle } from '@/components/ui/theme-toggle'
import { meOfHeaders } from '@/lib/auth/me'
import { Providers } from './providers'

export const metadata: Metadata = {
  title: { default: 'Loom Runs', template: '%s · Loom Runs' },
  description: 'Trace and resume long AI-agent runs stored in Loom',
}

// Applies the saved or system theme before first paint, so dark mode never flashes white.
const themeScript = `try{var t=localStorage.getItem('loom-runs-theme');if(t!=='light'&&t!=='dark'){t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.dataset.theme=t}catch(e){}`

// Watches the page's own scripts: one that fails to load, or no hydration 15 s after the page loaded,
// shows the banner below (hidden again as soon as the page hydrates).
const loadWatchScript = `(function(){var d=document.documentElement;function failed(){if(!d.dataset.hydrated)d.dataset.scriptsFailed='1'}addEventListener('error',function(e){var t=e.target;if(t&&t.tagName==='SCRIPT')failed()},true);addEventListener('load',function(){setTimeout(failed,15000)})})()`

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The per-request nonce that proxy.ts put in the Content-Security-Policy.
  const h = await headers()
  const nonce = h.get('x-nonce') ?? undefined
  // Known before the first paint: write controls render in the HTML exactly as the client
  // renders them, so hydration never has to throw the page away when the answer arrives.
  const me = await meOfHeaders(h)
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: loadWatchScript }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <div className="banner banner-error scripts-failed" role="alert">
          This page&apos;s scripts did not load, so its filters, tabs and buttons do not work. Check the connection to
          the console, then{' '}
          <a className="btn btn-small" href="">
            Reload the page
          </a>
        </div>
        <noscript>
          <div className="banner banner-error" role="alert">
            JavaScript is off: the console shows what the server rendered, but its filters, tabs and buttons need
            scripts.
          </div>
        </noscript>
        <Providers me={me}>
          <header className="topbar">
            <Link href="/" prefetch={false} className="brand" aria-label="Loom Runs home">
              <span className="brand-mark" aria-hidden>
                ◈
              </span>{' '}
              Loom Runs
            </Link>
            <nav aria-label="Main">
              <Link href="/" prefetch={false}>
                Runs
                <LinkPending label="Opening the runs list" />
              </Link>
              <Link href="/audit" prefetch={false}>
                Audit
                <LinkPending label="Opening the audit log" />
              </Link>
              <Link href="/schema" prefetch={false}>
                Schema
                <LinkPending label="Opening the schema doctor" />
              </Link>
            </nav>
            <div className="topbar-end">
              <UserMenu />
              <ThemeToggle />
            </div>
          </header>
          <main id="main">{children}</main>
        </Providers>
      </body>
    </html>
  )
}
