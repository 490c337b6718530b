'use client'

import { storedSetting } from '../ui/stored-setting'

/** Whether the runs page's Summary panel is open: a per-browser preference. */
const summary = storedSetting('loom-runs-summary', 'open')
const setOpen = (open: boolean) => summary.write(open ? 'open' : 'collapsed')

export function useSummaryOpen(): [boolean, (open: boolean) => void] {
  return [summary.useValue('open') !== 'collapsed', setOpen]
}
