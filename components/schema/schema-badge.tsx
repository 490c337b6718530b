import type { TableReport } from '@/lib/schema/types'
import { TONE_CLASS, type Tone } from './schema-tone'

/** The card's badge: what the operator should make of this table at a glance. */
export function tableBadge(t: Pick<TableReport, 'present' | 'status' | 'group'>): { label: string; tone: Tone } {
  if (!t.present) {
    if (t.status === 'info') return { label: t.group === 'telemetry' ? 'Off' : 'Not installed', tone: 'info' }
    return { label: 'Missing', tone: t.status === 'problem' ? 'problem' : 'warning' }
  }
  if (t.status === 'problem') return { label: 'Problem', tone: 'problem' }
  if (t.status === 'warning') return { label: 'Warning', tone: 'warning' }
  return { label: 'OK', tone: 'ok' }
}

export function SchemaBadge({ label, tone }: { label: string; tone: Tone }) {
  return (
    <span className={`badge ${TONE_CLASS[tone]}`} data-testid="schema-badge">
      {label}
    </span>
  )
}
