/** Event kinds of the run timeline, in lane order (the order a run usually does things in). */
export const TIMELINE_KINDS = [
  'run.begin',
  'checkpoint',
  'checkpoint.cleared',
  'block',
  'operator',
  'turn',
  'memory.write',
  'search',
  'blob',
  'run.complete',
] as const
export type TimelineKind = (typeof TIMELINE_KINDS)[number]
