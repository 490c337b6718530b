/**
 * The run page's tabs, in the order the tab bar shows them; `?tab=` names one. Kept apart from the
 * tabs' queries so that scripts and specs can list the tabs without loading the query library.
 */
export const RUN_TABS = [
  'checkpoint',
  'timeline',
  'conversation',
  'memories',
  'searches',
  'blobs',
  'blocks',
  'audit',
] as const
export type RunTab = (typeof RUN_TABS)[number]
