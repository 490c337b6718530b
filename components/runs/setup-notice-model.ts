/** What the runs page's setup notice says, from the health route's `setup` and what was dismissed. */

export type SetupState = { runIndex: boolean; history: boolean; command: string }

export type SetupNotice = {
  /** Stored when dismissed: the notice comes back if something else goes missing later. */
  key: string
  missing: { part: 'runIndex' | 'history'; name: string; why: string }[]
  command: string
}

export const SETUP_NOTICE_STORAGE_KEY = 'loom-runs-setup-notice-dismissed'

export function setupNotice(setup: SetupState | undefined, dismissedKey: string | null): SetupNotice | null {
  if (!setup) return null
  const missing: SetupNotice['missing'] = []
  if (!setup.runIndex) {
    missing.push({
      part: 'runIndex',
      name: 'The run index is not installed',
      why: 'so this list groups every working-memory row on each request (seconds, not milliseconds, at a million runs).',
    })
  }
  if (!setup.history) {
    missing.push({
      part: 'history',
      name: 'The history capture is not installed',
      why: 'so older checkpoint versions disappear when ClickHouse merges the parts that hold them.',
    })
  }
  if (missing.length === 0) return null
  const key = missing.map((m) => m.part).join(',')
  return key === dismissedKey ? null : { key, missing, command: setup.command }
}
