import { sortVersions } from './rows'
import { resumeFlowMermaid } from './mermaid'
import { resumeOf } from './detect'
import { segments } from './segments'
import type { ResumePoint, VersionInput } from './types'

/** Version rows and helpers shared by the resume unit tests. */

export const AGENT = 'batch-indexer'
export const HOST_A = 'host-a/pid-4242'
export const HOST_B = 'host-b/pid-5150'
export const CONSOLE = 'loom-runs-console'

export const iso = (ms: number) => new Date(ms).toISOString()
export const at = (s: string) => Date.parse(s)

export function row(
  version: number | string,
  time: number,
  sourceTrace: string,
  content: string,
  extra: Partial<VersionInput> = {},
): VersionInput {
  return {
    version: String(version),
    updatedAt: iso(time),
    actor: AGENT,
    sourceTrace,
    content,
    isDeleted: false,
    ...extra,
  }
}

export function tombstone(version: number, time: number, sourceTrace: string, actor = AGENT): VersionInput {
  return row(version, time, sourceTrace, '', { isDeleted: true, actor })
}

/** `" ".join(sorted(done))` after n items. */
export function batchState(n: number): string {
  return Array.from({ length: n }, (_, i) => `item-${String(i + 1).padStart(3, '0')}`).join(' ')
}

/** Mermaid's own parser. DOMPurify needs a DOM, which node has not; the parse only needs it to exist. */
export async function parseMermaid(text: string): Promise<void> {
  const purify = (await import('dompurify')).default as unknown as Record<string, unknown>
  purify.addHook = () => {}
  purify.sanitize = (s: unknown) => String(s)
  const { default: mermaid } = await import('mermaid')
  await mermaid.parse(text)
}

export function resumeFlow(versions: VersionInput[], points: ResumePoint[], direction: 'TD' | 'LR' = 'TD'): string {
  return resumeFlowMermaid(segments(versions, points, { runStatus: 'succeeded' }), points, { direction })
}

/** What resume returns after these versions: the highest one, as FINAL keeps it. */
export function resumeAfter(versions: readonly VersionInput[]): ReturnType<typeof resumeOf> {
  return resumeOf(sortVersions(versions).at(-1) ?? null)
}

/** A resume point: attempt 3's run.begin on host-b with a first write of v13; `over` sets what a test is about. */
export function resumePoint(over: Partial<ResumePoint> = {}): ResumePoint {
  return {
    at: '2026-11-23T09:08:55.400Z',
    reasons: ['run-begin'],
    fromVersion: null,
    fromTrace: null,
    toTrace: 'host-b',
    unitsDone: null,
    firstWrite: { version: '13', at: '2026-11-23T09:09:09.000Z', summary: 'added item-013' },
    previous: null,
    gapMs: null,
    gapFrom: null,
    attempt: 3,
    actor: 'agent',
    historyGap: false,
    restoredFrom: null,
    missed: null,
    ...over,
  }
}
