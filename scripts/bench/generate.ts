/**
 * Bulk data for the benchmark, generated inside ClickHouse (`INSERT … SELECT … FROM numbers()`),
 * shaped like the data contract (lib/loom/ddl.ts).
 *
 * Every row is a pure function of (salt, run number j, row number b): any table can find the
 * identity, times and sizes of its run again, so runs, blocks, turns, memories and searches agree
 * without joins. Distribution (per run j):
 * - identity: 40 orgs (skewed: the first few hold most runs), 4 namespaces, 48 agents (skewed);
 *   one agent in three serves many users (user_id / session_id set), the others run single-user
 *   (both empty, Loom's default);
 * - `cpOnlyRatio` of runs are checkpoint-only (working-memory rows, no `loom.runs` row);
 * - a few huge runs (one per 50,000, at least one) with ~12,000 blocks, 8,000 turns, 1,000
 *   memories and 1,500 searches: 10,000+ timeline events without working-memory history;
 * - other runs: block counts exponential with a heavy tail (1 in 20 runs six times larger), turns in
 *   one run in five, memories and searches in three in ten; counts calibrated to the targets;
 * - runs start over `spanDays` before the anchor, more of them recently; 2% start on the minute
 *   (batch launches: ties in the list order); runs still going at the anchor are `running`.
 * Working-memory rows are distinct blocks (latest versions, as after merges), so merges do not
 * change their number; 3% of runs also hold a checkpoint under a second session (a near miss),
 * 1% of blocks are tombstones, 2% of checkpoints are near their char_limit, 1% point at a blob.
 */

export type BulkScale = {
  /** Runs in total, checkpoint-only ones included. */
  runs: number
  /** Working-memory rows. */
  versions: number
  turns: number
  memories: number
  searches: number
}

export type BulkOptions = {
  /** Seeds every hash: another salt gives other run ids (used by --append). */
  salt: number
  /** Newest possible start, ms since epoch. */
  anchorMs: number
  spanDays: number
  cpOnlyRatio: number
  blobRatio: number
}

export type Calibration = {
  pWm: number
  pTurns: number
  pMem: number
  pSearch: number
  hugeCount: number
  hugeStride: number
  huge: { wm: number; turns: number; memories: number; searches: number }
}

export type Exec = (sql: string) => Promise<void>
export type Select = <T>(sql: string) => Promise<T[]>

const ORGS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'wonka',
  'cyberdyne',
  'tyrell',
  'soylent',
  'aperture',
  'massive',
  'gringotts',
  'oscorp',
  'vandelay',
  'pied-piper',
  'dunder',
  'monarch',
  'nakatomi',
  'blue-sun',
  'yoyodyne',
  'prestige',
  'virtucon',
  'duff',
  'krusty',
  'ollivander',
  'bluth',
  'sterling',
  'wernham',
  'contoso',
  'fabrikam',
  'northwind',
  'tailspin',
  'adventure',
  'litware',
  'proseware',
  'lucerne',
  'fourth-coffee',
  'woodgrove',
]
const AGENTS = [
  'support-triage',
  'invoice-bot',
  'research-agent',
  'code-reviewer',
  'ops-runbook',
  'sales-assistant',
  'data-cleaner',
  'translator',
  'scheduler',
  'claims-processor',
  'kb-writer',
  'qa-tester',
  'log-analyst',
  'onboarding-guide',
  'contract-reader',
  'churn-watcher',
  'email-drafter',
  'catalog-enricher',
  'fraud-screener',
  'survey-coder',
  'incident-scribe',
  'pricing-bot',
  'recruiter',
  'tax-helper',
  'route-planner',
  'inventory-bot',
  'legal-summarizer',
  'meeting-notes',
  'ticket-router',
  'compliance-check',
  'seo-writer',
  'release-notes',
  'backlog-groomer',
  'security-triage',
  'refund-agent',
  'crm-updater',
  'lead-scorer',
  'doc-migrator',
  'bug-reproducer',
  'dashboard-bot',
  'feedback-miner',
  'vendor-check',
  'travel-agent',
  'grant-writer',
  'tutor',
  'health-intake',
  'shipping-tracker',
  'press-monitor',
]
const VERBS = [
  'Reconcile',
  'Summarise',
  'Triage',
  'Refund',
  'Draft replies to',
  'Audit',
  'Migrate',
  'Classify',
  'Research',
  'Translate',
  'Schedule',
  'Escalate',
  'Review',
  'Index',
  'Backfill',
]
const OBJECTS = [
  'invoices',
  'support tickets',
  'the quarterly report',
  'customer emails',
  'pull requests',
  'shipping delays',
  'duplicate accounts',
  'the onboarding docs',
  'failed payments',
  'contract clauses',
  'server logs',
  'meeting notes',
  'product reviews',
  'expense claims',
  'search results',
]
const BLOCKS = ['plan', 'notes', 'scratch', 'tool-cache', 'memory-digest', 'todo']
const TOPICS = ['pref', 'fact', 'procedure', 'customer', 'tool', 'episode']
const MODELS = ['gpt-5.1', 'claude-sonnet-4.5', 'gemini-2.5-pro', 'llama-4-70b', 'mistral-large-3']
const QUERIES = [
  'refund policy for',
  'last invoice of',
  'preferred language of',
  'open tickets about',
  'escalation contact for',
  'known issues with',
  'contract renewal date of',
  'shipping address of',
]

const arr = (xs: string[]) => `[${xs.map((x) => `'${x.replace(/'/g, "\\'")}'`).join(', ')}]`
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(6))

export function defaultOptions(partial: Partial<BulkOptions> = {}): BulkOptions {
  return { salt: 1, anchorMs: Date.now(), spanDays: 25, cpOnlyRatio: 0.03, blobRatio: 0.01, ...partial }
}

function hugePlan(scale: BulkScale) {
  const hugeCount = Math.max(1, Math.floor(scale.runs / 50_000))
  const cap = (dflt: number, target: number) => Math.max(0, Math.min(dflt, Math.floor((target * 0.4) / hugeCount)))
  return {
    hugeCount,
    hugeStride: Math.max(1, Math.floor(scale.runs / hugeCount)),
    huge: {
      wm: cap(12_000, scale.versions),
      turns: cap(8_000, scale.turns),
      memories: cap(1_000, scale.memories),
      searches: cap(1_500, scale.searches),
    },
  }
}

/** Per-run attributes of run `j` (a column of the enclosing query), as a SELECT list. */
export function runAttrs(o: BulkOptions, c: Calibration): string {
  const s = o.salt
  const U = (k: number) => `((cityHash64(${s}, j, ${k}) % 1000000) / 1000000.)`
  const spanMs = Math.round(o.spanDays * 86_400_000)
  return `j,
    (j % ${c.hugeStride} = ${c.hugeStride - 1} AND j < ${c.hugeStride * c.hugeCount}) AS is_huge,
    (NOT is_huge) AND ${U(8)} < ${num(o.cpOnlyRatio)} AS cp_only,
    ${arr(ORGS)}[1 + toUInt32(floor(pow(${U(1)}, 2.2) * ${ORGS.length}))] AS r_org,
    multiIf(${U(2)} < 0.6, 'prod', ${U(2)} < 0.8, 'staging', ${U(2)} < 0.95, 'dev', 'eval') AS r_ns,
    toUInt32(floor(pow(${U(3)}, 1.8) * ${AGENTS.length})) AS agent_i,
    ${arr(AGENTS)}[1 + agent_i] AS r_agent,
    agent_i % 3 = 0 AS multi_user,
    if(multi_user, concat('user-', toString(cityHash64(${s}, j, 4) % 2000)), '') AS r_user,
    if(multi_user, concat('sess-', lower(hex(toUInt32(cityHash64(${s}, j, 5) % 4294967296)))), '') AS r_session,
    concat('run_', lower(hex(cityHash64(${s}, j, 6)))) AS r_run,
    if(is_huge, toInt64(${o.anchorMs}) - 86400000 - toInt64(j % 240) * 3600000,
       toInt64(${o.anchorMs}) - toInt64(floor(pow(${U(9)}, 1.15) * ${spanMs}))) AS start_raw,
    if(${U(13)} < 0.02, intDiv(start_raw, 60000) * 60000, start_raw) AS start_ms,
    toInt64(if(is_huge, 10800000 + cityHash64(${s}, j, 10) % 14400000, 2000 + floor(-log(1 - ${U(10)} * 0.999) * 600000))) AS dur_ms,
    (NOT is_huge) AND ((start_ms + dur_ms > ${o.anchorMs}) OR ${U(11)} < 0.003) AS is_running,
    multiIf(is_running, 'running', ${U(11)} < 0.8, 'succeeded', ${U(11)} < 0.94, 'failed', 'cancelled') AS r_status,
    toUInt32(multiIf(${U(12)} < 0.9, 1, ${U(12)} < 0.98, 2, 3)) AS r_attempt,
    if(${U(23)} < 0.05, 8192, 4096) AS r_limit,
    concat(${arr(VERBS)}[1 + cityHash64(${s}, j, 14) % ${VERBS.length}], ' ', ${arr(OBJECTS)}[1 + cityHash64(${s}, j, 15) % ${OBJECTS.length}],
      ' for ', ${arr(ORGS)}[1 + cityHash64(${s}, j, 16) % ${ORGS.length}],
      if(cityHash64(${s}, j, 17) % 3 = 0, concat(' (ticket T-', toString(10000 + cityHash64(${s}, j, 18) % 90000), ')'), '')) AS r_goal,
    toUInt32(multiIf(is_huge, ${c.huge.wm}, cp_only, 1 + cityHash64(${s}, j, 20) % 3,
      least(3000, 1 + floor(-log(1 - ${U(20)}) * ${num(c.pWm)} * if(${U(21)} < 0.05, 6, 1))))) AS n_wm,
    toUInt32(multiIf(is_huge, ${c.huge.turns}, cp_only, 0, ${U(30)} < 0.2, 1 + floor(-log(1 - ${U(31)}) * ${num(c.pTurns)}), 0)) AS n_turns,
    toUInt32(multiIf(is_huge, ${c.huge.memories}, cp_only, 0, ${U(40)} < 0.3, 1 + floor(-log(1 - ${U(41)}) * ${num(c.pMem)}), 0)) AS n_mem,
    toUInt32(multiIf(is_huge, ${c.huge.searches}, cp_only, 0, ${U(50)} < 0.3, 1 + floor(-log(1 - ${U(51)}) * ${num(c.pSearch)}), 0)) AS n_search,
    (NOT cp_only) AND ${U(60)} < ${num(o.blobRatio)} AS has_blob,
    concat('blob_', lower(hex(cityHash64(${s}, j, 61)))) AS blob_key,
    if(is_huge, 4, 1) AS n_conv,
    ${U(22)} < 0.03 AND n_wm >= 2 AND NOT is_huge AS near_miss`
}

/** Memory key b of run j (SQL expressions): stable, so runs and searches can point at it. */
function memKey(o: BulkOptions, jExpr: string, bExpr: string) {
  return `concat(${arr(TOPICS)}[1 + cityHash64(${o.salt}, ${jExpr}, ${bExpr}, 90) % ${TOPICS.length}], '/', lower(hex(cityHash64(${o.salt}, ${jExpr}, ${bExpr}, 91))))`
}

const ms = (expr: string) => `fromUnixTimestamp64Milli(toInt64(${expr}), 'UTC')`

function runsFrom(o: BulkOptions, c: Calibration, start: number, count: number, where = '1') {
  return `(SELECT ${runAttrs(o, c)} FROM (SELECT number AS j FROM numbers(${start}, ${count})) WHERE ${where})`
}

export type TableJob = {
  table: string
  /** What a chunk of runs [start, start + count) inserts. */
  sql: (start: number, count: number) => string
  /** Expected rows per run, to size chunks and the progress bar. */
  perRun: number
}

/** A job that inserts into `table`: `rest` writes what follows `INSERT INTO <table> ` for a chunk. */
function insertJob(table: string, perRun: number, rest: (start: number, count: number) => string): TableJob {
  return { table, perRun, sql: (start, count) => `INSERT INTO ${table} ${rest(start, count)}` }
}

export function tableJobs(
  o: BulkOptions,
  c: Calibration,
  scale: BulkScale,
  db: { loom: string; telemetry: string },
): TableJob[] {
  const s = o.salt
  const L = db.loom
  const runs = insertJob(
    `${L}.runs`,
    1,
    (start, count) => `(org, namespace, agent, user_id, session_id, run_id, goal, user_request, model, environment,
        metadata, status, outcome, final_response, memories_used, recalled_keys, reflection, confidence, attempt, turns,
        input_tokens, output_tokens, cost_usd, started_at, last_begin_at, completed_at, duration_ms, version)
      SELECT r_org, r_ns, r_agent, r_user, r_session, r_run, r_goal,
        concat('Please ', lower(r_goal), '. Keep a checkpoint so you can resume.'),
        ${arr(MODELS)}[1 + cityHash64(${s}, j, 100) % ${MODELS.length}], r_ns,
        concat('{"ticket":"T-', toString(10000 + cityHash64(${s}, j, 18) % 90000), '","priority":"', ['low', 'normal', 'high'][1 + cityHash64(${s}, j, 101) % 3], '"}'),
        r_status,
        multiIf(r_status = 'succeeded', 'done', r_status = 'failed', 'error: tool call failed after 3 retries', r_status = 'cancelled', 'cancelled by operator', ''),
        if(r_status = 'succeeded', rightPad('Finished: ', 120 + cityHash64(${s}, j, 102) % 600, 'summary of the work done and its result. '), ''),
        arrayConcat(arrayMap(x -> ${memKey(o, 'j', 'x')}, range(least(n_mem, 3))), if(cityHash64(${s}, j, 103) % 4 = 0, [${memKey(o, 'j - 1', '0')}], [])),
        arrayConcat(arrayMap(x -> ${memKey(o, 'j', 'x')}, range(least(n_mem, 5))), [${memKey(o, 'j - 2', '0')}]),
        if(is_running, '', concat('{"lesson":"', ['retry with smaller batches', 'check the cache first', 'ask for the account id early', 'checkpoint before each tool call'][1 + cityHash64(${s}, j, 104) % 4], '"}')),
        if(is_running, NULL, round((cityHash64(${s}, j, 105) % 100) / 100., 2)),
        r_attempt, n_turns, n_turns * (400 + cityHash64(${s}, j, 106) % 800), n_turns * (100 + cityHash64(${s}, j, 107) % 300),
        round(n_turns * 0.004 + (cityHash64(${s}, j, 108) % 100) / 10000., 6),
        ${ms('start_ms')}, ${ms('if(r_attempt > 1, start_ms + intDiv(dur_ms * 6, 10), start_ms)')},
        if(is_running, NULL, ${ms('start_ms + dur_ms')}), if(is_running, NULL, toUInt64(dur_ms)),
        toUInt64(if(is_running, r_attempt, r_attempt + 1))
      FROM ${runsFrom(o, c, start, count, 'NOT cp_only')}`,
  )
  const wm = insertJob(
    `${L}.working_memory`,
    scale.versions / scale.runs,
    (start, count) => `(org, namespace, agent, user_id, session_id, run_id, block_key, content,
        char_limit, version, is_deleted, actor, source_trace, updated_at)
      SELECT r_org, r_ns, r_agent,
        if(near_miss AND b = 1, if(r_user = '', 'user-shared', r_user), r_user) AS w_user,
        if(near_miss AND b = 1, if(r_session = '', 'sess-retry', concat(r_session, '-retry')), r_session) AS w_session,
        r_run,
        multiIf(b = 0 OR (near_miss AND b = 1), 'checkpoint', b <= 6, ${arr(BLOCKS)}[b], concat('step-', leftPad(toString(b), 5, '0'))) AS w_block,
        if(hb % 100 = 0, '',
          if(w_block = 'checkpoint',
            concat(rightPad(concat('{"step":', toString(w_version), ',"attempt":', toString(r_attempt),
                if(has_blob AND b = 0, concat(',"blob_key":"', blob_key, '"'), ''), ',"cursor":"', lower(hex(hb)), '","state":"'),
              toUInt64(if(intDiv(hb, 256) % 50 = 0, r_limit - 190 + intDiv(hb, 65536) % 180, 60 + intDiv(hb, 65536) % 1400)), 'done:item;'), '"}'),
            rightPad(concat('# ', w_block, ' ', lower(hex(hb)), '\\n'), toUInt64(20 + intDiv(hb, 65536) % 500), 'observed tool output; '))) AS w_content,
        r_limit, w_version, toUInt8(hb % 100 = 0),
        if(hb % 250 = 0, 'operator:alice', r_agent),
        concat('host-', toString(cityHash64(${s}, j, 7) % 9), '/pid-', toString(1000 + cityHash64(${s}, j, r_attempt, 8) % 60000)),
        ${ms(`least(toInt64(${o.anchorMs}), start_ms + if(w_block = 'checkpoint', intDiv(dur_ms * (90 + hb % 10), 100), intDiv(dur_ms * (b + 1), n_wm + 1)))`)}
      FROM (SELECT *, b, cityHash64(${s}, j, b, 70) AS hb, toUInt64(if(b = 0 OR (near_miss AND b = 1), 1 + hb % 40, 1 + hb % 4)) AS w_version
            FROM ${runsFrom(o, c, start, count)} ARRAY JOIN range(n_wm) AS b)`,
  )
  const conversations = insertJob(
    `${L}.conversations`,
    0.25,
    (start, count) => `(org, namespace, agent, user_id, session_id, conversation_id, run_id, title, created_at)
      SELECT r_org, r_ns, r_agent, r_user, r_session, concat('conv_', lower(hex(cityHash64(${s}, j, cv, 80)))), r_run,
        concat('Conversation ', toString(cv + 1), ': ', r_goal), ${ms('start_ms + intDiv(dur_ms * cv, n_conv)')}
      FROM ${runsFrom(o, c, start, count, 'n_turns > 0')} ARRAY JOIN range(n_conv) AS cv`,
  )
  const turns = insertJob(
    `${L}.conversation_turns`,
    scale.turns / scale.runs,
    (start, count) => `(org, namespace, agent, user_id, session_id, conversation_id, run_id, turn_index,
        role, content, tool_name, input_tokens, output_tokens, cost_usd, created_at)
      SELECT r_org, r_ns, r_agent, r_user, r_session, concat('conv_', lower(hex(cityHash64(${s}, j, b % n_conv, 80)))), r_run,
        toUInt32(intDiv(b, n_conv)) AS ti,
        multiIf(ti = 0, 'system', ti % 3 = 1, 'user', ti % 3 = 2, 'assistant', 'tool') AS role,
        rightPad(multiIf(role = 'system', 'You are a careful agent. ', role = 'user', concat('About ', lower(r_goal), ': '), role = 'tool', '{"result":"', 'Working on it: '),
          toUInt64(40 + ht % 700), 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '),
        if(role = 'tool', ['search_kb', 'http_get', 'sql_query', 'send_email', 'read_file'][1 + ht % 5], ''),
        if(role = 'assistant', 300 + ht % 2000, 0), if(role = 'assistant', 50 + ht % 600, 0),
        if(role = 'assistant', round((ht % 1000) / 100000., 6), 0),
        ${ms('start_ms + intDiv(dur_ms * b, n_turns)')}
      FROM (SELECT *, b, cityHash64(${s}, j, b, 81) AS ht FROM ${runsFrom(o, c, start, count, 'n_turns > 0')} ARRAY JOIN range(n_turns) AS b)`,
  )
  const memory = insertJob(
    `${L}.memory`,
    scale.memories / scale.runs,
    (start, count) => `(org, namespace, agent, user_id, session_id, memory_key, memory_id, memory_type, value, run_id,
        version, status, confidence, pinned, tags, actor, created_at, updated_at)
      SELECT r_org, r_ns, r_agent, if(hm % 2 = 0, r_user, ''), if(hm % 2 = 0, r_session, ''), ${memKey(o, 'j', 'b')},
        concat('mem_', lower(hex(cityHash64(${s}, j, b, 92)))), ['preference', 'fact', 'procedure', 'episode'][1 + hm % 4],
        concat('{"text":"', rightPad(concat(r_goal, ': '), toUInt64(30 + hm % 300), 'remembered detail. '), '"}'), r_run,
        toUInt64(1 + hm % 3), multiIf(hm % 100 < 90, 'live', hm % 100 < 97, 'superseded', 'tombstoned'),
        round(0.5 + (hm % 50) / 100., 2), toUInt8(hm % 50 = 0), [${arr(TOPICS)}[1 + hm % ${TOPICS.length}], r_ns], r_agent,
        ${ms('start_ms + intDiv(dur_ms * b, n_mem + 1)')}, ${ms('start_ms + intDiv(dur_ms * (b + 1), n_mem + 1)')}
      FROM (SELECT *, b, cityHash64(${s}, j, b, 93) AS hm FROM ${runsFrom(o, c, start, count, 'n_mem > 0')} ARRAY JOIN range(n_mem) AS b)`,
  )
  const searches = insertJob(
    `${db.telemetry}.search_trace_log`,
    scale.searches / scale.runs,
    (start, count) => `(org, namespace, agent, user_id, session_id, run_id, search_id, query, mode,
        filters, top_k, result_keys, result_scores, latency_ms, event_time)
      SELECT r_org, r_ns, r_agent, r_user, r_session, r_run, concat('srch_', lower(hex(cityHash64(${s}, j, b, 94)))),
        concat(${arr(QUERIES)}[1 + hs % ${QUERIES.length}], ' ', ${arr(ORGS)}[1 + intDiv(hs, 16) % ${ORGS.length}]),
        ['vector', 'hybrid', 'keyword'][1 + hs % 3], if(hs % 4 = 0, concat('{"run_id":"', r_run, '"}'), '{}'),
        toUInt16(if(hs % 2 = 0, 5, 10)) AS k,
        arrayMap(i -> if(n_mem > 0 AND i % 2 = 0, ${memKey(o, 'j', '(hs + i) % n_mem')}, ${memKey(o, 'j - 1 - i', '0')}), range(k)),
        arrayMap(i -> round(0.95 - i * 0.07 - (hs % 10) / 100., 3), range(k)),
        round(5 + (hs % 4000) / 100., 2), ${ms('start_ms + intDiv(dur_ms * b, n_search + 1)')}
      FROM (SELECT *, b, cityHash64(${s}, j, b, 95) AS hs FROM ${runsFrom(o, c, start, count, 'n_search > 0')} ARRAY JOIN range(n_search) AS b)`,
  )
  const blobs = insertJob(
    `${L}.context_blobs`,
    o.blobRatio,
    (start, count) => `(org, namespace, agent, user_id, session_id, blob_key, run_id, summary, content, size_bytes,
        created_at, expires_at)
      SELECT r_org, r_ns, r_agent, r_user, r_session, blob_key, r_run, concat('Offloaded tool output for ', lower(r_goal)),
        rightPad('', toUInt64(2000 + cityHash64(${s}, j, 62) % 20000) AS size, 'offloaded context bytes '), size,
        ${ms('start_ms + intDiv(dur_ms, 2)')},
        ${ms(`start_ms + intDiv(dur_ms, 2) + if(cityHash64(${s}, j, 63) % 10 = 0, 86400000, 30 * 86400000)`)}
      FROM ${runsFrom(o, c, start, count, 'has_blob')}`,
  )
  return [runs, wm, conversations, turns, memory, searches, blobs]
}

type Sums = {
  runs_rows: number
  cp_runs: number
  convs: number
  wm: number
  turns: number
  mem: number
  search: number
  blobs: number
}

async function sums(select: Select, o: BulkOptions, c: Calibration, runs: number): Promise<Sums> {
  const [row] = await select<
    Record<string, string | number>
  >(`SELECT countIf(NOT cp_only) AS runs_rows, countIf(cp_only) AS cp_runs,
      sum(if(n_turns > 0, n_conv, 0)) AS convs, sum(n_wm) AS wm, sum(n_turns) AS turns, sum(n_mem) AS mem, sum(n_search) AS search, countIf(has_blob) AS blobs
    FROM ${runsFrom(o, c, 0, runs)}`)
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as Sums
}

/**
 * Finds the distribution parameters that hit the target row counts (a few secant steps over a
 * query that only computes per-run counts), and returns the expected totals.
 */
export async function calibrate(
  select: Select,
  scale: BulkScale,
  o: BulkOptions,
): Promise<{ calibration: Calibration; expected: Sums }> {
  const plan = hugePlan(scale)
  let c: Calibration = { ...plan, pWm: 1, pTurns: 1, pMem: 1, pSearch: 1 }
  const zero = await sums(select, o, { ...c, pWm: 0, pTurns: 0, pMem: 0, pSearch: 0 }, scale.runs)
  let at = await sums(select, o, c, scale.runs)
  const fields: [keyof Calibration, keyof Sums, number][] = [
    ['pWm', 'wm', scale.versions],
    ['pTurns', 'turns', scale.turns],
    ['pMem', 'mem', scale.memories],
    ['pSearch', 'search', scale.searches],
  ]
  for (let step = 0; step < 3; step++) {
    const next: Record<string, number> = {}
    for (const [p, k, target] of fields) {
      const cur = c[p] as number
      const slope = (at[k] - zero[k]) / (cur || 1)
      next[p] = slope > 0 ? Math.max(0, (target - zero[k]) / slope) : 0
    }
    c = { ...c, ...next }
    at = await sums(select, o, c, scale.runs)
  }
  return { calibration: c, expected: at }
}

/** A few runs of each kind, for the benchmark's run-scoped routes (from the attributes, no scan). */
export function sampleRunsSql(o: BulkOptions, c: Calibration, runs: number) {
  const cols = `r_org AS org, r_ns AS namespace, r_agent AS agent, r_run AS runId, r_user AS userId, r_session AS sessionId,
    n_wm AS blocks, n_turns AS turns, n_mem AS memories, n_search AS searches, toString(${ms('start_ms')}) AS startedAt`
  const scan = Math.min(runs, 200_000)
  return {
    huge: `SELECT ${cols} FROM ${runsFrom(o, c, c.hugeStride - 1, 1)}`,
    typical: `SELECT ${cols} FROM ${runsFrom(o, c, 0, scan, 'NOT is_huge AND NOT cp_only AND NOT multi_user AND NOT is_running AND n_wm BETWEEN 6 AND 14 AND n_turns > 0 AND n_mem > 0 AND n_search > 0')} LIMIT 1`,
    busyAgent: `SELECT ${cols} FROM ${runsFrom(o, c, 0, scan, 'NOT is_huge AND NOT cp_only AND multi_user AND agent_i = 0 AND NOT is_running AND n_wm BETWEEN 6 AND 14 AND n_turns > 0 AND n_mem > 0 AND n_search > 0')} LIMIT 1`,
    checkpointOnly: `SELECT ${cols} FROM ${runsFrom(o, c, 0, scan, 'cp_only')} LIMIT 1`,
  }
}
