import type { Severity } from '@/lib/schema/types'
import styles from './schema.module.css'
import banner from './summary-banner.module.css'

export type Tone = 'ok' | 'info' | 'warning' | 'problem'

/** A tone's colour class (the shared tag tones), for badges and severity labels. */
export const TONE_CLASS: Record<Tone, string> = {
  ok: 'tag-ok',
  info: 'tag-unknown',
  warning: 'tag-warn',
  problem: 'tag-bad',
}

export const CARD_EDGE_CLASS: Record<Tone, string> = {
  ok: styles.cardOk,
  info: styles.cardInfo,
  warning: styles.cardWarning,
  problem: styles.cardProblem,
}

export const SEVERITY_CLASS: Record<Severity, string> = {
  problem: TONE_CLASS.problem,
  warning: TONE_CLASS.warning,
  info: TONE_CLASS.info,
}

export const REPORT_CLASS: Record<'ok' | 'warnings' | 'problems', string> = {
  ok: banner.bannerOk,
  warnings: banner.bannerWarnings,
  problems: banner.bannerProblems,
}
