/**
 * The load test's read workload: every run's pages (header, blocks, timeline, searches, memories,
 * audit, conversations, blobs, its checkpoint) and 1,000+ list and analytics filter combinations
 * (identity prefixes × status × page size, free text, day windows). Kinds: `list` / `analytics`
 * (identity and status), `list q` / `analytics q` (free text), `list day` / `analytics day` (a
 * day window), and `run…` for each run tab. Run pages are checked once
 * (200 only) before they join the pool; a step picks uniformly from it.
 */
import { encodeSegment } from '../../lib/links'

type Listed = {
  org: string
  namespace: string
  agent: string
  runId: string
  goal?: string
  checkpoint: { userId: string; sessionId: string } | null
}

export type ReadPool = {
  size: number
  runs: number
  byKind: Record<string, number>
  /** The pool's requests of one kind. */
  ofKind(kind: string): string[]
  pick(): string
}

const STATUSES = [undefined, 'running', 'succeeded', 'failed', 'unknown'] as const
const LIMITS = [undefined, 10, 25, 100] as const
const RUN_TABS = [
  '',
  '/blocks',
  '/blocks?content=none',
  '/timeline',
  '/timeline?limit=200',
  '/searches',
  '/memories',
  '/audit',
  '/conversations',
  '/blobs',
]
/** A capped pool (a large database) takes the pages a run page opens with, so checking them stays short. */
const RUN_TABS_CAPPED = ['', '/blocks?content=none', '/timeline?limit=200']

const qs = (o: Record<string, string | number | undefined>) => {
  const parts = Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
  return parts.length ? `?${parts.join('&')}` : ''
}

/** The newest `max` runs of the list (every run when it is Infinity). */
async function allRuns(base: string, max: number): Promise<Listed[]> {
  const out: Listed[] = []
  let cursor: string | null = null
  do {
    const res = await fetch(`${base}/api/runs?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    const body = (await res.json()) as { runs: Listed[]; nextCursor: string | null }
    out.push(...body.runs)
    cursor = body.nextCursor
  } while (cursor && out.length < max)
  return out.slice(0, max)
}

export async function buildReadPool(base: string, now = Date.now(), maxRuns = Infinity): Promise<ReadPool> {
  const runs = await allRuns(base, maxRuns)
  const candidates = new Map<string, string>() // path → kind
  const add = (kind: string, p: string) => {
    if (!candidates.has(p)) candidates.set(p, kind)
  }

  for (const r of runs) {
    const at = `/api/runs/${[r.org, r.namespace, r.agent, r.runId].map(encodeSegment).join('/')}`
    for (const tab of Number.isFinite(maxRuns) ? RUN_TABS_CAPPED : RUN_TABS)
      add(tab === '' ? 'run' : `run${tab.split('?')[0]}`, `${at}${tab}`)
    if (r.checkpoint)
      add(
        'run/block',
        `${at}/blocks/checkpoint${qs({ userId: r.checkpoint.userId, sessionId: r.checkpoint.sessionId })}`,
      )
  }

  const prefixes = new Map<string, Record<string, string>>()
  prefixes.set('{}', {})
  for (const r of runs) {
    const levels: Record<string, string>[] = [
      { org: r.org },
      { org: r.org, namespace: r.namespace },
      { org: r.org, namespace: r.namespace, agent: r.agent },
      { agent: r.agent },
    ]
    for (const p of levels) {
      prefixes.set(JSON.stringify(p), p)
    }
  }
  const texts = new Set<string>()
  for (const r of runs) {
    texts.add(r.runId.slice(0, 6))
    const word = (r.goal ?? '').split(/\s+/).find((w) => w.length >= 4)
    if (word) texts.add(word.toLowerCase())
  }
  const day = 86_400_000
  const windows = Array.from({ length: 8 }, (_, i) => ({
    from: new Date(now - (i + 1) * day).toISOString(),
    to: new Date(now - i * day).toISOString(),
  }))

  for (const p of prefixes.values()) {
    for (const status of STATUSES) {
      for (const limit of LIMITS) add('list', `/api/runs${qs({ ...p, status, limit })}`)
      add('analytics', `/api/runs/analytics${qs({ ...p, status })}`)
    }
  }
  for (const q of texts) {
    for (const limit of [undefined, 25]) add('list q', `/api/runs${qs({ q, limit })}`)
    add('analytics q', `/api/runs/analytics${qs({ q })}`)
  }
  for (const w of windows) {
    for (const status of STATUSES) {
      add('list day', `/api/runs${qs({ ...w, status })}`)
      add('analytics day', `/api/runs/analytics${qs({ ...w, status })}`)
    }
  }

  // Only requests the server answers 200 join the pool (a run may have no such tab). List and
  // analytics filters are valid by construction; run pages are checked once.
  const paths: string[] = []
  const kinds: string[] = []
  const byKind: Record<string, number> = {}
  const dropped: Record<string, number> = {}
  for (const [p, kind] of candidates) {
    if (kind.startsWith('list') || kind.startsWith('analytics')) {
      paths.push(p)
      kinds.push(kind)
      byKind[kind] = (byKind[kind] ?? 0) + 1
      continue
    }
    const res = await fetch(`${base}${p}`)
    await res.arrayBuffer()
    if (res.status === 200) {
      paths.push(p)
      kinds.push(kind)
      byKind[kind] = (byKind[kind] ?? 0) + 1
    } else dropped[`${kind} ${res.status}`] = (dropped[`${kind} ${res.status}`] ?? 0) + 1
  }
  if (Object.keys(dropped).length) process.stderr.write(`left out of the pool (not 200): ${JSON.stringify(dropped)}\n`)
  return {
    size: paths.length,
    runs: runs.length,
    byKind,
    ofKind: (kind) => paths.filter((_, i) => kinds[i] === kind),
    pick: () => paths[Math.floor(Math.random() * paths.length)],
  }
}
