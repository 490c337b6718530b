import type { Severity } from '@/lib/schema/types'
import styles from './schema.module.css'
import banner from './summary-banner.module.css'

export type Tone = 'ok' | 'info' | 'warning' | 'problem'

/** A tone's colour class, shared by badges, severity labels and cards' edges. */
export const TONE_CLASS: Record<Tone, string> = { ok: styles.ok, info: styles.info, warning: styles.warning, problem: styles.problem }

export const CARD_EDGE_CLASS: Record<Tone, string> = {
  ok: styles.cardOk,
  info: styles.cardInfo,
  warning: styles.cardWarning,
  problem: styles.cardProblem,
}

export const SEVERITY_CLASS: Record<Severity, string> = { problem: styles.problem, warning: styles.warning, info: styles.info }

export const REPORT_CLASS: Record<'ok' | 'warnings' | 'problems', string> = {
  ok: banner.bannerOk,
  warnings: banner.bannerWarnings,
  problems: banner.bannerProblems,
}
