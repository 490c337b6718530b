import type { TableReport } from '@/lib/schema/types'

/** The card's badge: what the operator should make of this table at a glance. */
export function tableBadge(t: Pick<TableReport, 'present' | 'status' | 'group'>): { label: string; tone: 'ok' | 'info' | 'warning' | 'problem' } {
  if (!t.present) {
    if (t.status === 'info') return { label: t.group === 'telemetry' ? 'Off' : 'Not installed', tone: 'info' }
    return { label: 'Missing', tone: t.status === 'problem' ? 'problem' : 'warning' }
  }
  if (t.status === 'problem') return { label: 'Problem', tone: 'problem' }
  if (t.status === 'warning') return { label: 'Warning', tone: 'warning' }
  return { label: 'OK', tone: 'ok' }
}

export function SchemaBadge({ label, tone }: { label: string; tone: 'ok' | 'info' | 'warning' | 'problem' }) {
  return <span className={`badge sd-badge sd-${tone}`}>{label}</span>
}
