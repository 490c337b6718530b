import type { ReactNode } from 'react'

export type BannerTone = 'error' | 'warning' | 'info'

const TONE: Record<BannerTone, string> = {
  error: 'banner banner-error',
  warning: 'banner banner-warn',
  info: 'banner banner-info',
}

/** The classes of a banner's tone, for a strip that needs its own layout on top. */
export function bannerClass(tone: BannerTone, extra?: string): string {
  return extra ? `${TONE[tone]} ${extra}` : TONE[tone]
}

/** A message strip; an error is an alert, the others are polite status notes unless the caller says otherwise. */
export function Banner({
  tone,
  role,
  className,
  children,
}: {
  tone: BannerTone
  role?: 'alert' | 'status' | 'note'
  className?: string
  children: ReactNode
}) {
  return (
    <div className={bannerClass(tone, className)} role={role ?? (tone === 'error' ? 'alert' : 'status')}>
      {children}
    </div>
  )
}
