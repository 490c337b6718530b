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
