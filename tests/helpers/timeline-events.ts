import type { TimelineEvent } from '../../lib/queries/timeline'

/** A checkpoint write by the agent, as the timeline lists it: the fields a test does not care about left empty. */
export function checkpointEvent(version: string, at: string): TimelineEvent {
  return {
    id: `checkpoint-${version}`,
    at,
    kind: 'checkpoint',
    label: '',
    version,
    blockKey: 'checkpoint',
    userId: '',
    sessionId: '',
    actor: 'agent',
    detail: '',
    ref: '',
  }
}
