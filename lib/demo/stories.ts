/**
 * The demo's scenarios, each a short story of one or more agent processes following the
 * checkpoint/resume pattern. Every write goes through lib/loom/* (via AgentProcess), except
 * the console's own audit row, which goes through recordAudit like the console's edit route.
 */
import { AppError } from '../errors'
import { recordAudit, type AuditAction } from '../loom/audit'
import { wmDelete, wmLatestRow, wmSet } from '../loom/working-memory'
import { Rng } from './prng'
import {
  BATCH,
  NEAR_MISS,
  OPERATOR_ACTOR,
  OPERATOR_NAME,
  OPERATOR_SOURCE_TRACE,
  TOO_LARGE,
  type DemoRun,
  type DemoRuns,
} from './scenarios'
import {
  AgentProcess,
  SimClock,
  Tally,
  costOf,
  itemIds,
  itemWorker,
  joinSorted,
  parseDone,
  sourceTrace,
  type ProcessOptions,
} from './sim'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H

/** Shared state of one seeding: the seed, `now`, and the tally of writes. */
export class World {
  readonly tally = new Tally()

  constructor(
    readonly seed: number,
    readonly nowMs: number,
  ) {}

  rng(label: string): Rng {
    return Rng.from(this.seed, `story:${label}`)
  }

  /** A clock starting `agoMs` before now. */
  clock(agoMs: number): SimClock {
    return new SimClock(this.nowMs - agoMs, this.nowMs)
  }

  process(run: DemoRun, opts: Omit<ProcessOptions, 'tally'>): AgentProcess {
    return new AgentProcess(run, { ...opts, tally: this.tally })
  }
}

function reflection(summary: string, wentWell: string[], wentWrong: string[], lessons: string[]) {
  return { summary, went_well: wentWell, went_wrong: wentWrong, lessons }
}

/** a) 300 items, one checkpoint per item; the first process dies doing item 121; a second one resumes. */
export async function batchStory(w: World, run: DemoRun) {
  const rng = w.rng('batch')
  const clock = w.clock(6 * D + 18 * H + rng.int(0, 2 * H))
  const items = itemIds(BATCH.itemCount)
  const goal = `Index the ${BATCH.itemCount} product documents of catalog 2024-Q4 into the search index`
  const metadata = { catalog: '2024-Q4', items: BATCH.itemCount, index: 'products-v3' }

  const first = w.process(run, { sourceTrace: BATCH.sourceTraces[0], clock, rng, model: 'gpt-4o-mini' })
  await first.begin({ goal, environment: 'k8s/prod-eu-1', metadata, userRequest: 'nightly catalog indexing job' })
  // Dies after doing item 121's work, before its checkpoint: item-121 will be done twice.
  const crashed = await itemWorker(first, items, { itemS: [3, 9], crashOn: items[BATCH.crashAfter] })
  if (crashed.outcome !== 'crashed') throw new Error('batch story: the first process should have crashed')

  // The pod is rescheduled on another host a few minutes later.
  clock.advance(rng, 6 * 60, 14 * 60)
  const second = w.process(run, { sourceTrace: BATCH.sourceTraces[1], clock, rng, model: 'gpt-4o-mini' })
  await second.begin({ goal, environment: 'k8s/prod-eu-1', metadata })
  const finished = await itemWorker(second, items, { itemS: [3, 9] })
  await second.complete({
    status: 'succeeded',
    outcome: `Indexed ${finished.done.size}/${BATCH.itemCount} documents; resumed once after a crash (skipped ${finished.skipped} done items)`,
    finalResponse: `products-v3 now holds ${BATCH.itemCount} documents from catalog 2024-Q4.`,
    reflection: reflection(
      'Finished the catalog after one crash; the resume skipped the 120 checkpointed items.',
      ['A checkpoint after every item meant the crash cost one item of work (item-121 was redone).'],
      ['The first process was OOM-killed while embedding item-121.'],
      ['Keep per-item checkpoints for batches whose items take seconds each.'],
    ),
    confidence: 0.94,
    turns: 2 * BATCH.itemCount,
    inputTokens: 1_050_000 + rng.int(0, 90_000),
    outputTokens: 61_000 + rng.int(0, 9_000),
    costUsd: 0.19,
  })
  // Done: the checkpoint is cleared so a later run with this id starts fresh.
  await second.clear()
}

/** b) The resumed process ran under another session: resume() saw nothing and it redid all the work. */
export async function nearMissStory(w: World, run: DemoRun) {
  const rng = w.rng('near-miss')
  const clock = w.clock(5 * D + 4 * H + rng.int(0, H))
  const items = itemIds(NEAR_MISS.itemCount)
  const goal = `Write the ${NEAR_MISS.itemCount} sections of the monthly account report for u-7`
  // Each attempt is a process on its own host, begun under its own chat session.
  const attempt = async (host: string, sessionId: string, userRequest: string) => {
    const p = w.process(run, { sourceTrace: sourceTrace(rng, [host]), clock, rng, sessionId })
    await p.begin({ goal, environment: 'k8s/prod-us-2', userRequest })
    return p
  }
  const first = await attempt('host-c', NEAR_MISS.firstSessionId, 'Generate my monthly report')
  await itemWorker(first, items, { itemS: [4, 15], crashOn: items[NEAR_MISS.crashAfter] })

  clock.advance(rng, 2 * 3600, 4 * 3600)
  // The retry came in through a new chat session: same user, same run_id, session s2.
  const second = await attempt('host-d', NEAR_MISS.secondSessionId, 'Retry: generate my monthly report')
  const result = await itemWorker(second, items, { itemS: [4, 15] })
  await second.complete({
    status: 'succeeded',
    outcome: `Wrote ${result.done.size}/${NEAR_MISS.itemCount} sections; resume() returned None at start, so every section was written from scratch`,
    reflection: reflection(
      'Report complete.',
      ['All sections written.'],
      ['resume() found no checkpoint although an earlier attempt existed; the work took twice as long.'],
      ['Resume with the same user_id and session_id the run started with.'],
    ),
    confidence: 0.71,
    turns: 2 * NEAR_MISS.itemCount + 2 * NEAR_MISS.crashAfter,
    inputTokens: 520_000 + rng.int(0, 40_000),
    outputTokens: 140_000 + rng.int(0, 20_000),
    costUsd: 3.71,
  })
}

/** c) A JSON checkpoint that grows each step until set() refuses it (too_large); the run fails. */
export async function tooLargeStory(w: World, run: DemoRun) {
  const rng = w.rng('too-large')
  const clock = w.clock(4 * D + 10 * H + rng.int(0, 2 * H))
  const p = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng, model: 'claude-haiku-3.5' })
  await p.begin({
    goal: 'Crawl the partner catalog and collect every product page URL',
    environment: 'k8s/staging',
    metadata: { seed_url: 'https://partner.example.com/catalog', max_depth: 4 },
  })
  const state: { seed: string; depth: number; visited: string[]; queue: number } = {
    seed: 'https://partner.example.com/catalog',
    depth: 1,
    visited: [],
    queue: 1,
  }
  for (let step = 1; step <= 200; step++) {
    p.work(2, 8)
    state.visited.push(
      `https://partner.example.com/catalog/category-${rng.int(1, 40)}/products/${rng.int(1000, 99999)}?page=${rng.int(1, 9)}`,
    )
    state.queue += rng.int(0, 4)
    state.depth = Math.min(4, 1 + Math.floor(step / 6))
    try {
      await p.checkpoint(JSON.stringify(state), { charLimit: TOO_LARGE.charLimit })
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'too_large') throw err
      await p.complete({
        status: 'failed',
        outcome: `checkpoint refused at step ${step} (too_large): ${err.message}. The visited list belongs in a context offload.`,
        reflection: reflection(
          'Stopped: the crawl state no longer fits the checkpoint block.',
          [`${state.visited.length - 1} pages crawled before the refusal.`],
          [`The state grew by one URL per step and passed the block's char_limit of ${TOO_LARGE.charLimit}.`],
          ['Offload the visited list with context.offload and keep only its blob_key and a cursor in the checkpoint.'],
        ),
        confidence: 0.2,
        turns: step,
        inputTokens: step * 1800,
        outputTokens: step * 140,
        costUsd: Math.round(step * 0.0021 * 1e4) / 1e4,
      })
      return
    }
  }
  throw new Error('too-large story: the checkpoint never outgrew its char_limit')
}

function blobText(rng: Rng, title: string, paragraphs: number): string {
  const words = [
    'clause',
    'term',
    'renewal',
    'liability',
    'notice',
    'party',
    'fee',
    'schedule',
    'annex',
    'breach',
    'warranty',
    'period',
  ]
  const out = [`# ${title}`]
  for (let i = 0; i < paragraphs; i++) {
    const n = rng.int(40, 90)
    out.push(Array.from({ length: n }, () => rng.pick(words)).join(' ') + '.')
  }
  return out.join('\n\n')
}

/** d) State offloaded to blobs; the checkpoint is `{"blob_key": ..., "cursor": n}`. */
export async function blobStory(w: World, run: DemoRun) {
  const rng = w.rng('blob')
  const clock = w.clock(3 * D + 20 * H + rng.int(0, H))
  const p = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng })
  await p.begin({
    goal: 'Summarize the 8 supplier contracts of the 2025 renewal batch',
    environment: 'k8s/prod-eu-1',
    metadata: { contracts: 8 },
  })
  const month = 30 * 24 * 3600
  let blob = await p.offload('Extracted text of contracts 1-4', blobText(rng, 'Contracts 1-4', 60), month)
  for (let cursor = 1; cursor <= 8; cursor++) {
    p.work(20, 90)
    if (cursor === 5) {
      // The working text grew: offload the next batch and point the checkpoint at it.
      blob = await p.offload(
        'Extracted text of contracts 5-8 with notes on 1-4',
        blobText(rng, 'Contracts 5-8', 90),
        month,
      )
    }
    await p.checkpoint(JSON.stringify({ blob_key: blob.blobKey, cursor }))
  }
  await p.complete({
    status: 'succeeded',
    outcome: 'Summarized 8/8 contracts',
    finalResponse: 'Two contracts auto-renew in March; one has an uncapped liability clause (contract 6).',
    reflection: reflection(
      'All contracts summarized.',
      ['Offloading the extracted text kept the checkpoint at a few dozen characters.'],
      [],
      ['Point the checkpoint at the newest blob as soon as it is written.'],
    ),
    confidence: 0.88,
    turns: 16,
    inputTokens: 310_000,
    outputTokens: 12_400,
    costUsd: 1.116,
  })
}

/** d') The checkpoint points at a blob whose ttl ran out before the run was resumed. */
export async function expiredBlobStory(w: World, run: DemoRun) {
  const rng = w.rng('expired-blob')
  const clock = w.clock(6 * D + 2 * H + rng.int(0, H))
  const goal = 'Summarize the board minutes archive (2019-2024)'
  const first = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng })
  await first.begin({ goal, environment: 'k8s/prod-eu-1' })
  const ttlSeconds = 3600
  const blob = await first.offload(
    'Extracted text of minutes 2019-2021',
    blobText(rng, 'Minutes 2019-2021', 40),
    ttlSeconds,
  )
  for (let cursor = 1; cursor <= 3; cursor++) {
    first.work(30, 120)
    await first.checkpoint(JSON.stringify({ blob_key: blob.blobKey, cursor }))
  }
  // The node is drained; nobody resumes the run for days.
  clock.jumpTo(w.nowMs - (D + 3 * H + rng.int(0, H)))
  const second = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng })
  await second.begin({ goal, environment: 'k8s/prod-eu-1' })
  const state = JSON.parse((await second.resume()) ?? '{}') as { blob_key?: string; cursor?: number }
  const expired = state.blob_key === blob.blobKey && blob.expiresAtMs < clock.ms
  if (!expired) throw new Error('expired-blob story: the blob should have expired before the resume')
  await second.complete({
    status: 'failed',
    outcome: `resume() returned cursor ${state.cursor} with blob_key ${state.blob_key}, but that blob expired at ${new Date(
      blob.expiresAtMs,
    ).toISOString()} (ttl ${ttlSeconds} s); cannot continue`,
    reflection: reflection(
      'Could not resume: the offloaded state was gone.',
      [],
      [`The blob's ttl (${ttlSeconds} s) was shorter than the time between the crash and the resume.`],
      ['Give offloaded state a ttl longer than the longest plausible outage, or re-derive it on resume.'],
    ),
    confidence: 0.1,
  })
}

/** The console's edit / clear: a working-memory write as operator:alice plus its audit row. */
async function operatorAction(
  w: World,
  run: DemoRun,
  clock: SimClock,
  rng: Rng,
  action: Extract<AuditAction, 'edit' | 'clear'>,
  reason: string,
  content = '',
) {
  const block = blockOf(run)
  const ctx = { actor: OPERATOR_ACTOR, sourceTrace: OPERATOR_SOURCE_TRACE, now: clock.now }
  // The operator opened the editor a minute ago, on the version they saw then.
  const seen = await wmLatestRow(block)
  clock.advance(rng, 40, 150)
  const opts = { expectedVersion: seen?.version ?? '0', verify: true }
  const result = action === 'edit' ? await wmSet(block, content, ctx, opts) : await wmDelete(block, ctx, opts)
  w.tally.workingMemoryRows++
  if (action === 'clear') w.tally.tombstones++
  await recordAudit({
    at: clock.now(),
    operator: OPERATOR_NAME,
    action,
    reason,
    block,
    beforeVersion: result.previous?.version ?? null,
    afterVersion: result.row.version,
    beforeContent: result.previous && result.previous.is_deleted === 0 ? result.previous.content : '',
    afterContent: result.row.content,
    requestId: `req-${rng.hex(12)}`,
  })
  w.tally.auditRows++
  return result
}

type InvoiceState = { cursor: string; processed: number; skipped: string[] }

/** e) Two attempts die on the same poison invoice; an operator edits the checkpoint to skip it; the third attempt finishes. */
export async function operatorEditedStory(w: World, run: DemoRun) {
  const rng = w.rng('operator-edited')
  const clock = w.clock(2 * D + 6 * H + rng.int(0, H))
  const invoices = Array.from({ length: 20 }, (_, i) => `inv-${String(401 + i).padStart(4, '0')}`)
  const poison = 'inv-0412'
  const goal = 'Reconcile the 20 open supplier invoices of March against bank statements'

  const attempt = async (trace: string) => {
    const p = w.process(run, { sourceTrace: trace, clock, rng, model: 'claude-haiku-3.5' })
    await p.begin({ goal, environment: 'k8s/prod-eu-1', metadata: { ledger: 'AP-2025-03' } })
    const saved = await p.resume()
    const state: InvoiceState = saved ? (JSON.parse(saved) as InvoiceState) : { cursor: '', processed: 0, skipped: [] }
    for (const inv of invoices) {
      if (state.cursor !== '' && inv <= state.cursor) continue
      p.work(5, 25)
      if (inv === poison && !state.skipped.includes(inv)) {
        await p.complete({
          status: 'failed',
          outcome: `${poison}: currency field "EURO" is not an ISO 4217 code; the reconciler raised and stopped at cursor ${state.cursor}`,
          reflection: reflection(
            `Stopped at ${poison}.`,
            [`${state.processed} invoices reconciled before the failure.`],
            [`${poison} has a malformed currency and fails on every attempt.`],
            ['Quarantine records that fail validation instead of raising.'],
          ),
          confidence: 0.3,
          turns: 2 * state.processed,
          inputTokens: state.processed * 2400,
          outputTokens: state.processed * 180,
          costUsd: Math.round(state.processed * 0.0027 * 1e4) / 1e4,
        })
        return p
      }
      state.cursor = inv
      state.processed++
      await p.checkpoint(JSON.stringify(state))
    }
    await p.complete({
      status: 'succeeded',
      outcome: `Reconciled ${state.processed}/${invoices.length} invoices; skipped ${state.skipped.join(', ')} as set by the operator`,
      reflection: reflection(
        'Reconciliation complete after an operator skipped a malformed invoice.',
        ['Resumed exactly at the cursor the operator set.'],
        [`${poison} still needs a manual fix in the ledger.`],
        ['Validate currencies before reconciling.'],
      ),
      confidence: 0.9,
      turns: 2 * invoices.length,
      inputTokens: invoices.length * 2400,
      outputTokens: invoices.length * 180,
      costUsd: 0.079,
    })
    return p
  }

  await attempt(sourceTrace(rng))
  clock.advance(rng, 30 * 60, 50 * 60)
  await attempt(sourceTrace(rng))

  // Hours later, alice moves the cursor past the poison invoice from the console.
  clock.advance(rng, 2 * 3600, 4 * 3600)
  const current = JSON.parse((await wmLatestRow(blockOf(run)))?.content ?? '{}') as InvoiceState
  const edited: InvoiceState = { cursor: poison, processed: current.processed, skipped: [...current.skipped, poison] }
  await operatorAction(
    w,
    run,
    clock,
    rng,
    'edit',
    `Skip ${poison}: malformed currency "EURO", fixed by hand in the ledger (ticket FIN-221)`,
    JSON.stringify(edited),
  )

  clock.advance(rng, 20 * 60, 60 * 60)
  await attempt(sourceTrace(rng))
}

function blockOf(run: DemoRun, blockKey = 'checkpoint') {
  return {
    org: run.org,
    namespace: run.namespace,
    agent: run.agent,
    userId: run.userId,
    sessionId: run.sessionId,
    runId: run.runId,
    blockKey,
  }
}

/** e') A migration run stops on a checkpoint that lies; an operator clears it so the next run starts over. */
export async function operatorClearedStory(w: World, run: DemoRun) {
  const rng = w.rng('operator-cleared')
  const clock = w.clock(D + 8 * H + rng.int(0, H))
  const migrations = ['0038', '0039', '0040', '0041', '0042', '0043', '0044']
  const p = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng })
  await p.begin({
    goal: 'Apply pending schema migrations 0038-0044 to the staging warehouse',
    environment: 'k8s/staging',
  })
  const applied = parseDone(await p.resume())
  for (const m of migrations) {
    if (applied.has(m)) continue
    p.work(10, 60)
    if (m === '0043') {
      await p.complete({
        status: 'failed',
        outcome: 'Migration 0043 failed: relation "orders_v2" does not exist (0042 was rolled back outside the runner)',
        reflection: reflection(
          'Stopped at 0043.',
          ['0038-0042 applied in order.'],
          ['The checkpoint says 0042 is applied, but a DBA rolled it back by hand.'],
          ['Verify applied migrations against the schema table on resume, not only the checkpoint.'],
        ),
        confidence: 0.4,
      })
      break
    }
    applied.add(m)
    await p.checkpoint(joinSorted(applied))
  }
  clock.advance(rng, 1.5 * 3600, 3 * 3600)
  await operatorAction(
    w,
    run,
    clock,
    rng,
    'clear',
    'Checkpoint lists 0042 as applied but it was rolled back by hand; clearing so the next run re-checks from scratch',
  )
}

/**
 * A research run in the user's notebook: its process begins with the user's request, and opens a
 * conversation with the system prompt and that request as its first two turns.
 */
async function notebookChat(
  w: World,
  run: DemoRun,
  rng: Rng,
  clock: SimClock,
  chat: {
    goal: string
    userRequest: string
    title: string
    system: string
    systemTurn?: Parameters<AgentProcess['turn']>[3]
  },
) {
  const p = w.process(run, { sourceTrace: sourceTrace(rng, ['notebook-7']), clock, rng })
  await p.begin({ goal: chat.goal, userRequest: chat.userRequest, environment: 'web' })
  const conv = await p.conversation(chat.title)
  await p.turn(conv, 'system', chat.system, chat.systemTurn)
  await p.turn(conv, 'user', chat.userRequest)
  return { p, conv }
}

/** f) A research run with a conversation, searches and memory writes. */
export async function researchWriterStory(w: World, run: DemoRun) {
  const rng = w.rng('research-writer')
  const clock = w.clock(3 * D + 2 * H + rng.int(0, H))
  const { p, conv } = await notebookChat(w, run, rng, clock, {
    goal: 'Compare tier-2 pricing of Northwind, Contoso and Fabrikam for the Q3 procurement memo',
    userRequest: 'Which vendor is cheapest for 200 seats on tier 2?',
    title: 'Q3 vendor pricing comparison',
    system: 'You are a procurement research assistant. Cite a source for every price.',
    systemTurn: { inputTokens: 0 },
  })
  await p.search('tier-2 price per seat', [], { topK: 5 })
  await p.turn(conv, 'assistant', 'No prior notes on this. Fetching the three pricing pages.', {
    inputTokens: 1850,
    outputTokens: 96,
  })
  await p.turn(
    conv,
    'tool',
    '{"northwind": 18.5, "contoso": 21.0, "fabrikam": 24.0, "currency": "USD", "unit": "seat/month"}',
    {
      toolName: 'fetch_pricing_pages',
    },
  )
  await p.checkpoint(JSON.stringify({ step: 'compare', vendors_done: ['contoso', 'fabrikam', 'northwind'] }))
  await p.append('notes', 'northwind: 18.50 USD/seat/month, tier 2, annual billing')
  await p.append('notes', 'contoso: 21.00 USD/seat/month, 10% off above 150 seats')
  await p.append('notes', 'fabrikam: 24.00 USD/seat/month')
  await p.remember({
    memoryKey: 'vendor.northwind.tier-2.price',
    value: { usd_per_seat_month: 18.5, billing: 'annual' },
    confidence: 0.92,
    tags: ['pricing', 'q3'],
  })
  await p.remember({
    memoryKey: 'vendor.contoso.tier-2.price',
    value: { usd_per_seat_month: 21.0, discount_above_150: 0.1 },
    confidence: 0.9,
    tags: ['pricing', 'q3'],
  })
  await p.remember({
    memoryKey: 'vendor.fabrikam.tier-2.price',
    value: { usd_per_seat_month: 24.0 },
    confidence: 0.88,
    tags: ['pricing', 'q3'],
  })
  await p.remember({
    memoryKey: 'procurement.q3.budget-cap',
    value: { usd_per_month: 4000 },
    memoryType: 'constraint',
    confidence: 0.99,
    pinned: true,
    tags: ['budget'],
  })
  await p.turn(
    conv,
    'assistant',
    'For 200 seats: Contoso 3,780 USD/month after its discount, Northwind 3,700, Fabrikam 4,800. Northwind is cheapest.',
    {
      inputTokens: 2600,
      outputTokens: 210,
    },
  )
  await p.complete({
    status: 'succeeded',
    outcome: 'Compared 3 vendors; Northwind cheapest at 3,700 USD/month for 200 seats',
    finalResponse: 'Northwind: 3,700 USD/month; Contoso: 3,780; Fabrikam: 4,800.',
    reflection: reflection(
      'Answered with sources; saved each price as a memory for the memo.',
      ['Prices stored as memories so the memo run can reuse them.'],
      ['First search found nothing: no prior notes.'],
      ['Store prices with their billing terms.'],
    ),
    confidence: 0.86,
    memoriesUsed: [],
    recalledKeys: [],
  })
}

/** f') A later run of the same user that finds and uses the writer's memories. */
export async function researchReaderStory(w: World, run: DemoRun) {
  const rng = w.rng('research-reader')
  const clock = w.clock(D + 5 * H + rng.int(0, H))
  const { p, conv } = await notebookChat(w, run, rng, clock, {
    goal: 'Draft the Q3 procurement memo recommendation',
    userRequest: 'Draft the memo: which vendor and why, within budget?',
    title: 'Q3 procurement memo',
    system: 'You draft procurement memos. Use stored research; do not re-fetch prices.',
  })
  const hits1 = [
    { memoryKey: 'vendor.northwind.tier-2.price', score: 0.912 },
    { memoryKey: 'vendor.contoso.tier-2.price', score: 0.874 },
    { memoryKey: 'vendor.fabrikam.tier-2.price', score: 0.851 },
    { memoryKey: 'procurement.q3.budget-cap', score: 0.418 },
  ]
  await p.search('tier-2 price per seat', hits1, { mode: 'hybrid', topK: 5, filters: { tags: ['pricing'] } })
  await p.turn(conv, 'tool', JSON.stringify(hits1.map((h) => h.memoryKey)), { toolName: 'memory.search' })
  const hits2 = [
    { memoryKey: 'procurement.q3.budget-cap', score: 0.953 },
    { memoryKey: 'vendor.northwind.tier-2.price', score: 0.311 },
  ]
  await p.search('Q3 budget cap', hits2, { mode: 'keyword', topK: 3 })
  await p.turn(conv, 'tool', JSON.stringify(hits2.map((h) => h.memoryKey)), { toolName: 'memory.search' })
  await p.checkpoint(JSON.stringify({ step: 'draft', sections_done: ['context', 'options'] }))
  await p.turn(
    conv,
    'assistant',
    'Recommendation: Northwind, 3,700 USD/month for 200 seats, under the 4,000 USD cap.',
    {
      inputTokens: 3400,
      outputTokens: 620,
    },
  )
  await p.checkpoint(JSON.stringify({ step: 'done', sections_done: ['context', 'options', 'recommendation'] }))
  // Contoso's sales rep sent a better quote during the run: a new version of the writer's memory.
  await p.remember({
    memoryKey: 'vendor.contoso.tier-2.price',
    value: { usd_per_seat_month: 19.0, discount_above_150: 0.1, quote: 'Q-5531' },
    confidence: 0.95,
    tags: ['pricing', 'q3'],
  })
  await p.remember({
    memoryKey: 'procurement.q3.recommendation',
    value: { vendor: 'northwind', usd_per_month: 3700 },
    memoryType: 'decision',
    confidence: 0.84,
    tags: ['memo'],
  })
  await p.complete({
    status: 'succeeded',
    outcome: 'Memo drafted: Northwind recommended',
    finalResponse: 'Recommend Northwind at 3,700 USD/month (200 seats), within the 4,000 USD budget cap.',
    reflection: reflection(
      'Drafted from stored research without re-fetching prices.',
      ['Two searches found the prices and the budget cap written by the research run.'],
      ['Fabrikam price was recalled but not needed.'],
      ['Recall budget constraints before comparing prices.'],
    ),
    confidence: 0.84,
    memoriesUsed: ['procurement.q3.budget-cap', 'vendor.contoso.tier-2.price', 'vendor.northwind.tier-2.price'],
    recalledKeys: [...new Set([...hits1, ...hits2].map((h) => h.memoryKey))].sort(),
  })
}

/** f'') A support chat whose tool call was refused: a failed run with a transcript. */
export async function supportStory(w: World, run: DemoRun) {
  const rng = w.rng('support')
  const clock = w.clock(2 * D + 22 * H + rng.int(0, H))
  const p = w.process(run, {
    sourceTrace: sourceTrace(rng, ['support-gw-1', 'support-gw-2']),
    clock,
    rng,
    model: 'claude-haiku-3.5',
  })
  await p.begin({
    goal: 'Refund order #88213 (damaged on delivery)',
    userRequest: 'My order arrived broken, I want a refund',
    environment: 'chat',
  })
  const conv = await p.conversation('Refund request #88213')
  await p.turn(conv, 'system', 'You are the Acme support agent. Refunds above 200 USD need a supervisor.')
  await p.turn(conv, 'user', 'My order #88213 arrived broken, I want a refund.')
  await p.search('refund policy damaged delivery', [{ memoryKey: 'policy.refund.damaged', score: 0.77 }], { topK: 3 })
  await p.remember({
    memoryKey: 'policy.refund.damaged',
    value: { max_without_supervisor_usd: 200 },
    memoryType: 'policy',
    confidence: 0.97,
    sessionId: '',
  })
  await p.turn(conv, 'assistant', 'Sorry about that. Let me issue the refund.', { inputTokens: 1400, outputTokens: 45 })
  await p.turn(conv, 'tool', '{"error": "forbidden", "message": "refund of 349.00 USD requires supervisor approval"}', {
    toolName: 'refund_order',
  })
  await p.checkpoint(JSON.stringify({ order: '88213', step: 'refund', approval: 'pending' }))
  await p.turn(
    conv,
    'assistant',
    'This refund needs a supervisor; I have escalated it. You will hear back within 24 hours.',
    {
      inputTokens: 1700,
      outputTokens: 60,
    },
  )
  await p.complete({
    status: 'failed',
    outcome: 'refund_order returned forbidden: 349.00 USD needs supervisor approval; escalated',
    reflection: reflection(
      'Could not refund without approval.',
      ['Escalated with the order details.'],
      ['Tried the refund before checking the amount against the policy.'],
      ['Check policy.refund.damaged before calling refund_order.'],
    ),
    confidence: 0.6,
    memoriesUsed: ['policy.refund.damaged'],
    recalledKeys: ['policy.refund.damaged'],
  })
}

/** g) A run still going: checkpoints every ~50 s, the last one within the last minute before now. */
export async function runningStory(w: World, run: DemoRun) {
  const rng = w.rng('running')
  const clock = w.clock(9 * MIN + rng.int(0, 2 * MIN))
  const p = w.process(run, { sourceTrace: sourceTrace(rng, ['crawler-0']), clock, rng, model: 'gpt-4o-mini' })
  await p.begin({
    goal: 'Crawl docs.example.com and refresh the help-center index',
    environment: 'k8s/prod-eu-1',
    metadata: { site: 'docs.example.com' },
  })
  let cursor = 0
  const checkpoint = () =>
    p.checkpoint(
      JSON.stringify({ cursor, last_url: `https://docs.example.com/page-${String(cursor).padStart(5, '0')}` }),
    )
  while (clock.ms + 75 * S < w.nowMs - 40 * S) {
    p.work(30, 75)
    cursor += rng.int(1, 3)
    await checkpoint()
  }
  await p.recordUsage({
    turns: cursor,
    inputTokens: cursor * 900,
    outputTokens: cursor * 60,
    costUsd: cursor * 0.00017,
  })
  // The latest checkpoint: a few seconds before now.
  clock.jumpTo(w.nowMs - rng.int(3 * S, 25 * S))
  cursor += 1
  await checkpoint()
}

/** g') A run whose only process died two days ago and that nobody resumed: still `running`. */
export async function staleRunningStory(w: World, run: DemoRun) {
  const rng = w.rng('stale-running')
  const clock = w.clock(2 * D + H + rng.int(0, H))
  const p = w.process(run, { sourceTrace: sourceTrace(rng), clock, rng })
  await p.begin({
    goal: 'Sync the orders, customers and invoices tables to the staging lake',
    environment: 'k8s/staging',
  })
  await itemWorker(p, ['customers', 'invoices', 'orders', 'payments', 'refunds'], {
    itemS: [40, 200],
    crashOn: 'payments',
  })
}

/** g'') Runs that only ever checkpointed (no run.begin). */
export async function checkpointOnlyStories(w: World, runs: DemoRun[]) {
  const [nb1, nb2, cron] = runs
  {
    const rng = w.rng('checkpoint-only:0')
    const clock = w.clock(4 * D + rng.int(0, 6 * H))
    const p = w.process(nb1, { sourceTrace: sourceTrace(rng, ['laptop']), clock, rng })
    await itemWorker(p, itemIds(3, 'cell', 2), { itemS: [10, 120] })
    await p.append('notes', 'cell-02 is slow: pandas merge on 2M rows')
    await p.append('notes', 'try duckdb next time')
    await p.append('notes', 'done')
  }
  {
    const rng = w.rng('checkpoint-only:1')
    const clock = w.clock(2 * D + rng.int(0, 6 * H))
    const p = w.process(nb2, { sourceTrace: sourceTrace(rng, ['laptop']), clock, rng })
    for (let epoch = 1; epoch <= 2; epoch++) {
      p.work(60, 300)
      await p.checkpoint(JSON.stringify({ epoch, loss: Math.round(rng.float(0.2, 0.9) * 1000) / 1000 }))
    }
  }
  {
    const rng = w.rng('checkpoint-only:2')
    const clock = w.clock(6 * H + rng.int(0, H))
    const p = w.process(cron, { sourceTrace: sourceTrace(rng, ['cron-1']), clock, rng })
    await itemWorker(p, ['logs', 'sessions', 'tmp', 'uploads'], { itemS: [2, 20] })
    await p.clear()
  }
  for (const r of runs) w.tally.checkpointOnlyRuns.add(Tally.runKey(r))
}

/** The run_id that needs escaping everywhere. */
export async function edgeCaseStory(w: World, run: DemoRun) {
  const rng = w.rng('edge-case')
  const clock = w.clock(20 * H + rng.int(0, H))
  const p = w.process(run, { sourceTrace: sourceTrace(rng, ['laptop']), clock, rng })
  await p.begin({
    goal: 'Exercise awkward identifiers: / % " ü and an emoji 🧵',
    environment: 'local',
    metadata: { note: 'quote " and backslash \\' },
  })
  p.work(1, 5)
  await p.checkpoint('done: ü "quoted" 50% a/b')
  p.work(1, 5)
  await p.checkpoint('done: ü "quoted" 50% a/b 🧵\nsecond line')
  await p.append('notes', 'line with <html> & "quotes"')
  await p.complete({
    status: 'succeeded',
    outcome: 'All awkward identifiers round-tripped',
    reflection: { summary: 'ü ok', emoji: '🧵' },
    confidence: 1,
  })
}

const FILLER_GOALS: Record<string, string[]> = {
  'batch-indexer': ['Re-index the changed documents of the day', 'Backfill embeddings for archived catalog items'],
  'report-writer': ['Write the weekly usage summary', 'Write the quarterly account review'],
  'support-agent': ['Answer a shipping delay question', 'Reset a customer password', 'Explain an invoice line'],
  'web-crawler': ['Crawl the partner changelog', 'Check the sitemap for broken links'],
  'research-assistant': ['Summarize three papers on retrieval evaluation', 'Find prior notes on vendor SLAs'],
  'doc-summarizer': ['Summarize the security policy update', 'Summarize the onboarding handbook'],
  'etl-sync': ['Sync the CRM accounts table', "Sync yesterday's events partition"],
  'migration-runner': ['Apply migration 0036', 'Apply migration 0037'],
  notebook: ['Explore the churn dataset', 'Plot weekly retention'],
  'scratch-agent': ['Try the new prompt template', 'Benchmark the tokenizer'],
}

/** Quick runs across identities so the runs list has pages. A few start at the same instant (ties). */
export async function fillerStories(w: World, runs: DemoRun[]) {
  const rng = w.rng('filler')
  const span = 7 * D - 3 * H
  const starts = runs.map((_, i) => w.nowMs - 7 * D + Math.floor(((i + rng.next()) / runs.length) * span))
  // A scheduler starts some runs in the same millisecond: keyset pagination must handle ties.
  for (const i of [6, 7, 19, 31]) starts[i] = starts[i - 1]
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]
    const r = rng.fork(`filler:${i}`)
    const clock = new SimClock(starts[i], w.nowMs)
    const p = w.process(run, {
      sourceTrace: sourceTrace(r),
      clock,
      rng: r,
      model: r.pick(['claude-sonnet-4', 'claude-haiku-3.5', 'gpt-4o-mini']),
    })
    const goal = r.pick(FILLER_GOALS[run.agent] ?? ['Routine task'])
    // Begin exactly at the planned instant, so that tied starts really tie.
    await p.begin(
      { goal, environment: run.namespace === 'local' ? 'local' : `k8s/${run.namespace}` },
      { immediate: true },
    )
    const steps = r.chance(0.25) ? r.int(1, 2) : 0
    if (steps > 0) await itemWorker(p, itemIds(steps, 'step', 2), { itemS: [5, 90] })
    else p.work(5, 120)
    const roll = r.next()
    const status = roll < 0.7 ? 'succeeded' : roll < 0.88 ? 'failed' : 'cancelled'
    const turns = r.int(2, 24)
    const inputTokens = turns * r.int(600, 3000)
    const outputTokens = turns * r.int(40, 400)
    await p.complete({
      status,
      outcome:
        status === 'succeeded'
          ? 'Done'
          : status === 'failed'
            ? r.pick([
                'Tool timed out after 3 retries',
                'Model refused: missing permissions',
                'Upstream API returned 502',
              ])
            : 'Cancelled by the user',
      reflection:
        status === 'succeeded' && r.chance(0.5)
          ? reflection('Routine run.', ['Finished on the first try.'], [], [])
          : undefined,
      confidence: status === 'succeeded' ? Math.round(r.float(0.6, 0.99) * 100) / 100 : null,
      turns,
      inputTokens,
      outputTokens,
      costUsd: costOf(p.model, inputTokens, outputTokens),
    })
    if (status === 'succeeded' && steps > 0 && r.chance(0.4)) await p.clear()
  }
}

/** Runs every story, one after the other, in a fixed order (memories are written before they are used). */
export async function runAllStories(w: World, runs: DemoRuns) {
  await batchStory(w, runs.batch)
  await nearMissStory(w, runs.nearMiss)
  await tooLargeStory(w, runs.tooLarge)
  await blobStory(w, runs.blob)
  await expiredBlobStory(w, runs.expiredBlob)
  await operatorEditedStory(w, runs.operatorEdited)
  await operatorClearedStory(w, runs.operatorCleared)
  await researchWriterStory(w, runs.researchWriter)
  await researchReaderStory(w, runs.researchReader)
  await supportStory(w, runs.support)
  await staleRunningStory(w, runs.staleRunning)
  await checkpointOnlyStories(w, runs.checkpointOnly)
  await edgeCaseStory(w, runs.edgeCase)
  await fillerStories(w, runs.filler)
  await runningStory(w, runs.running)
}
