/**
 * Who the demo's runs are. Identities are constants; run ids are derived from the seed
 * alone (never from the clock), so tests and e2e can compute them with `demoRuns(seed)`
 * or import `DEMO_RUNS` for the seed the server uses (`DEMO_SEED`).
 */
import type { Identity, RunRef } from '../loom/identity'
import { Rng } from './prng'

/** The seed `ensureReady()` seeds the embedded database with. */
export const DEMO_SEED = 42

/** A run of the demo: its identity and where its checkpoint block sits (user_id, session_id). */
export type DemoRun = RunRef & { userId: string; sessionId: string }

type Who = Omit<Identity, 'userId' | 'sessionId'> & { userId?: string; sessionId?: string }

export const ORGS = ['acme', 'globex', 'dev'] as const
export const NAMESPACES = ['prod', 'staging', 'local'] as const

/** The operator of the demo's console edits: the audit log names them, the working-memory row's actor is `operator:<name>`. */
export const OPERATOR_NAME = 'alice'
export const OPERATOR_ACTOR = `operator:${OPERATOR_NAME}`
export const OPERATOR_SOURCE_TRACE = 'loom-runs-console'

/** The identity of a run written without a user or a session (most of the demo's). */
const NO_USER = { userId: '', sessionId: '' } as const

/** a) 300-item batch, crashes after item 120 is checkpointed, resumed by a second process. */
export const BATCH = {
  org: 'acme',
  namespace: 'prod',
  agent: 'batch-indexer',
  userId: '',
  sessionId: '',
  itemCount: 300,
  /** Items checkpointed by the first process; it crashes while doing the next one. */
  crashAfter: 120,
  sourceTraces: ['host-a/pid-4242', 'host-b/pid-5150'],
} as const

/** b) Near miss: the second process resumes under another session and redoes everything. */
export const NEAR_MISS = {
  org: 'acme',
  namespace: 'prod',
  agent: 'report-writer',
  userId: 'u-7',
  firstSessionId: 's1',
  secondSessionId: 's2',
  itemCount: 100,
  crashAfter: 40,
} as const

/** c) A JSON checkpoint that outgrew its block's char_limit; the run failed. */
export const TOO_LARGE = {
  org: 'acme',
  namespace: 'staging',
  agent: 'web-crawler',
  userId: '',
  sessionId: '',
  charLimit: 1024,
} as const

/** d) State offloaded to blobs; the checkpoint holds the blob_key. Two runs of this agent. */
export const BLOB = { org: 'globex', namespace: 'prod', agent: 'doc-summarizer', ...NO_USER } as const

/** e) Operator actions. */
export const OPERATOR_EDITED = { org: 'acme', namespace: 'prod', agent: 'invoice-reconciler', ...NO_USER } as const
export const OPERATOR_CLEARED = { org: 'globex', namespace: 'staging', agent: 'migration-runner', ...NO_USER } as const

/** f) Conversations, memories, searches; the reader run uses memories the writer run wrote. */
export const RESEARCH = {
  org: 'globex',
  namespace: 'prod',
  agent: 'research-assistant',
  userId: 'u-42',
  writerSessionId: 'sess-001',
  readerSessionId: 'sess-002',
  /** Memories are kept per user, not per session. */
  memorySessionId: '',
} as const
export const SUPPORT = {
  org: 'acme',
  namespace: 'prod',
  agent: 'support-agent',
  userId: 'u-19',
  sessionId: 'chat-88',
} as const

/** g) A run still going (last checkpoint within the last minute before `now`); `npm run dev` keeps it going. */
export const RUNNING = { org: 'acme', namespace: 'prod', agent: 'live-crawler', ...NO_USER } as const
/** A run whose process died days ago and was never resumed: still `running`, stale checkpoint. */
export const STALE_RUNNING = { org: 'globex', namespace: 'staging', agent: 'etl-sync', ...NO_USER } as const

/** Runs that only ever wrote working memory (no run.begin). */
export const CHECKPOINT_ONLY: readonly Who[] = [
  { org: 'dev', namespace: 'local', agent: 'notebook' },
  { org: 'dev', namespace: 'local', agent: 'notebook', userId: 'u-1', sessionId: 'nb-2' },
  { org: 'globex', namespace: 'staging', agent: 'cron-cleaner' },
]

/** A run_id that needs escaping everywhere (URL segments, SQL, JSON, HTML). */
export const EDGE_CASE = {
  org: 'dev',
  namespace: 'local',
  agent: 'edge-cases',
  userId: '',
  sessionId: '',
  runId: 'run/with%odd "chars" ü',
} as const

export const FILLER_COUNT = 40

/** Identities the quick filler runs are spread over. */
export const FILLER_IDENTITIES: readonly Who[] = [
  { org: 'acme', namespace: 'prod', agent: 'batch-indexer' },
  { org: 'acme', namespace: 'prod', agent: 'report-writer', userId: 'u-7', sessionId: 's3' },
  { org: 'acme', namespace: 'prod', agent: 'support-agent', userId: 'u-21', sessionId: 'chat-90' },
  { org: 'acme', namespace: 'staging', agent: 'web-crawler' },
  { org: 'acme', namespace: 'staging', agent: 'support-agent', userId: 'u-3', sessionId: 'chat-12' },
  { org: 'globex', namespace: 'prod', agent: 'research-assistant', userId: 'u-42', sessionId: 'sess-003' },
  { org: 'globex', namespace: 'prod', agent: 'doc-summarizer' },
  { org: 'globex', namespace: 'staging', agent: 'etl-sync' },
  { org: 'globex', namespace: 'staging', agent: 'migration-runner' },
  { org: 'dev', namespace: 'local', agent: 'notebook' },
  { org: 'dev', namespace: 'local', agent: 'scratch-agent', userId: 'me' },
]

export type DemoRuns = {
  batch: DemoRun
  /** Final identity: session s2 (the s1 checkpoint is the near miss). */
  nearMiss: DemoRun
  tooLarge: DemoRun
  blob: DemoRun
  expiredBlob: DemoRun
  operatorEdited: DemoRun
  operatorCleared: DemoRun
  researchWriter: DemoRun
  researchReader: DemoRun
  support: DemoRun
  running: DemoRun
  staleRunning: DemoRun
  edgeCase: DemoRun
  checkpointOnly: DemoRun[]
  filler: DemoRun[]
}

function run(who: Who, runId: string): DemoRun {
  return {
    org: who.org,
    namespace: who.namespace,
    agent: who.agent,
    runId,
    userId: who.userId ?? '',
    sessionId: who.sessionId ?? '',
  }
}

/** Every run of the demo for a seed: identities fixed, run ids drawn from the seed (`run-` + 10 hex digits). */
export function demoRuns(seed: number): DemoRuns {
  const used = new Set<string>()
  const id = (label: string) => {
    const rng = Rng.from(seed, `run-id:${label}`)
    let value = `run-${rng.hex(10)}`
    while (used.has(value)) value = `run-${rng.hex(10)}`
    used.add(value)
    return value
  }
  const pickRng = Rng.from(seed, 'filler-identities')
  return {
    batch: run(BATCH, id('batch')),
    nearMiss: run({ ...NEAR_MISS, sessionId: NEAR_MISS.secondSessionId }, id('near-miss')),
    tooLarge: run(TOO_LARGE, id('too-large')),
    blob: run(BLOB, id('blob')),
    expiredBlob: run(BLOB, id('expired-blob')),
    operatorEdited: run(OPERATOR_EDITED, id('operator-edited')),
    operatorCleared: run(OPERATOR_CLEARED, id('operator-cleared')),
    researchWriter: run({ ...RESEARCH, sessionId: RESEARCH.writerSessionId }, id('research-writer')),
    researchReader: run({ ...RESEARCH, sessionId: RESEARCH.readerSessionId }, id('research-reader')),
    support: run(SUPPORT, id('support')),
    running: run(RUNNING, id('running')),
    staleRunning: run(STALE_RUNNING, id('stale-running')),
    edgeCase: run(EDGE_CASE, EDGE_CASE.runId),
    checkpointOnly: CHECKPOINT_ONLY.map((who, i) => run(who, id(`checkpoint-only:${i}`))),
    filler: Array.from({ length: FILLER_COUNT }, (_, i) => run(pickRng.pick(FILLER_IDENTITIES), id(`filler:${i}`))),
  }
}

/** Every run of the plan, named runs first. */
export function allDemoRuns(runs: DemoRuns): DemoRun[] {
  const { checkpointOnly, filler, ...named } = runs
  return [...Object.values(named), ...checkpointOnly, ...filler]
}

/** The run_ids the seed writes to `loom.runs` (every run but the checkpoint-only ones), sorted. */
export function runsTableRunIds(runs: DemoRuns): string[] {
  const checkpointOnly = new Set(runs.checkpointOnly)
  return allDemoRuns(runs)
    .filter((r) => !checkpointOnly.has(r))
    .map((r) => r.runId)
    .sort()
}

/** The runs of the seed the server uses. */
export const DEMO_RUNS: DemoRuns = demoRuns(DEMO_SEED)
