/**
 * The data contract as data: what the schema doctor expects to find.
 * Names come from tableNames() / runIndexNames(), so configured database names are honoured.
 * It must stay in step with lib/loom/ddl.ts: tests/schema-doctor*.test.ts creates that DDL and
 * checks that the report finds nothing wrong with it.
 */
import { getConfig } from '../config'
import { LOOM_TABLE_KEYS, type LoomTableName } from '../loom/schema-map'
import { columnRenames, tableNames } from '../loom/tables'
import { runIndexObjects } from './contract-run-index'
import { cols, DT, engine, IDENTITY, RUN_ID_BLOOM, table, view } from './spec-builders'
import type { Contract, ObjectSpec, TableMapping, TableSpec } from './types'

const WORKING_MEMORY_COLUMNS = cols(`
  run_id String
  block_key String
  content String
  char_limit UInt32 DEFAULT 4096
  version UInt64
  is_deleted UInt8 DEFAULT 0
  actor String
  source_trace String
  updated_at ${DT}`)

export const WORKING_MEMORY_KEY = ['org', 'namespace', 'agent', 'user_id', 'session_id', 'run_id', 'block_key']

/** Where the schema mapping renames a Loom table or its columns, the spec carries the physical names. */
function mapped(spec: TableSpec, config = getConfig()): TableSpec {
  const contractTable = (Object.entries(LOOM_TABLE_KEYS) as [LoomTableName, string][]).find(([, key]) => key === spec.key)?.[0]
  const entry = contractTable ? config.schemaMap[contractTable] : undefined
  if (!contractTable || !entry) return spec
  const renames = columnRenames(spec.fullName, config) ?? {}
  const rename = (name: string) => renames[name] ?? name
  const mapping: TableMapping = {
    contractTable,
    table: spec.fullName,
    columns: Object.entries(renames).map(([contract, physical]) => ({ contract, physical })),
  }
  return {
    ...spec,
    engine: { ...spec.engine, args: spec.engine.args.map(rename) },
    sortingKey: spec.sortingKey.map(rename),
    columns: spec.columns.map((c) => ({ ...c, name: rename(c.name) })),
    skipIndexes: spec.skipIndexes.map((ix) => ({ ...ix, expr: rename(ix.expr) })),
    mapping,
  }
}

/** The contract's Loom tables (with the schema mapping applied). */
function loomTables(t: ReturnType<typeof tableNames>): TableSpec[] {
  return contractLoomTables(t).map((spec) => mapped(spec))
}

function contractLoomTables(t: ReturnType<typeof tableNames>): TableSpec[] {
  return [
    table(t.workingMemory, {
      key: 'workingMemory',
      group: 'loom',
      purpose: 'Blocks and checkpoints: one row per version of each block.',
      whenMissing: 'problem',
      disables: 'Checkpoint tab, editing, the resume explainer and checkpoint-only runs: the console has nothing to show',
      engine: engine('ReplacingMergeTree', 'version'),
      sortingKey: WORKING_MEMORY_KEY,
      columns: [...IDENTITY, ...WORKING_MEMORY_COLUMNS],
    }),
    table(t.runs, {
      key: 'runs',
      group: 'loom',
      purpose: 'One row per run (run.begin / run.complete), a new version per write.',
      whenMissing: 'problem',
      disables: 'Runs list and run header: goal, status, attempts, cost and reflection are unavailable',
      engine: engine('ReplacingMergeTree', 'version'),
      sortingKey: ['org', 'namespace', 'agent', 'run_id'],
      columns: [
        ...IDENTITY,
        ...cols(`
          run_id String
          goal String
          user_request String
          model String
          environment String
          metadata String
          status LowCardinality(String)
          outcome String
          final_response String
          memories_used Array(String)
          recalled_keys Array(String)
          reflection String
          confidence Nullable(Float64)
          attempt UInt32
          turns UInt32
          input_tokens UInt64
          output_tokens UInt64
          cost_usd Float64
          started_at ${DT}
          last_begin_at ${DT}
          completed_at Nullable(${DT})
          duration_ms Nullable(UInt64)
          version UInt64`),
      ],
    }),
    table(t.conversations, {
      key: 'conversations',
      group: 'loom',
      purpose: 'Conversations bound to a run (title, creation time).',
      whenMissing: 'warning',
      disables: 'Conversation tab: transcripts lose their titles and cannot be listed',
      engine: engine('ReplacingMergeTree', 'created_at'),
      sortingKey: ['org', 'namespace', 'agent', 'conversation_id'],
      columns: [...IDENTITY, ...cols(`
        conversation_id String
        run_id String
        title String
        created_at ${DT}`)],
      skipIndexes: [RUN_ID_BLOOM],
    }),
    table(t.turns, {
      key: 'turns',
      group: 'loom',
      purpose: 'Every turn of every conversation (role, content, tool calls, tokens).',
      whenMissing: 'warning',
      disables: 'Conversation tab and the turn events of the Timeline',
      engine: engine('MergeTree'),
      sortingKey: ['org', 'namespace', 'agent', 'conversation_id', 'turn_index'],
      columns: [...IDENTITY, ...cols(`
        conversation_id String
        run_id String
        turn_index UInt32
        role LowCardinality(String)
        content String
        tool_name String
        input_tokens UInt64
        output_tokens UInt64
        cost_usd Float64
        created_at ${DT}`)],
      skipIndexes: [RUN_ID_BLOOM],
    }),
    table(t.memory, {
      key: 'memory',
      group: 'loom',
      purpose: 'Durable memories; those a run wrote carry its run_id.',
      whenMissing: 'warning',
      disables: 'Memories tab, memory.write events in the Timeline, and the writers of search hits',
      engine: engine('ReplacingMergeTree', 'version'),
      sortingKey: ['org', 'namespace', 'agent', 'user_id', 'session_id', 'memory_key'],
      columns: [...IDENTITY, ...cols(`
        memory_key String
        memory_id String
        memory_type LowCardinality(String)
        value String
        run_id String
        version UInt64
        status LowCardinality(String)
        confidence Float64
        pinned UInt8
        tags Array(String)
        actor String
        created_at ${DT}
        updated_at ${DT}`)],
      skipIndexes: [RUN_ID_BLOOM],
    }),
    table(t.contextBlobs, {
      key: 'contextBlobs',
      group: 'loom',
      purpose: 'Context offloads (context.offload): large state a checkpoint points to by blob_key.',
      whenMissing: 'warning',
      disables: 'Blobs tab, offload events in the Timeline, and the expired-blob flag on checkpoints',
      engine: engine('MergeTree'),
      sortingKey: ['org', 'namespace', 'agent', 'blob_key'],
      columns: [...IDENTITY, ...cols(`
        blob_key String
        run_id String
        summary String
        content String
        size_bytes UInt64
        created_at ${DT}
        expires_at ${DT}`)],
      skipIndexes: [RUN_ID_BLOOM],
    }),
    table(t.searchTrace, {
      key: 'searchTrace',
      group: 'telemetry',
      purpose: 'Every search a run made and its ranked hits (LOOM_SEARCH_TRACE_LOG_ENABLED=true; off by default in Loom).',
      whenMissing: 'info',
      disables: 'Searches tab: the trace log is off or missing, so searches and their hits are not shown (nor in the Timeline)',
      engine: engine('MergeTree'),
      sortingKey: ['org', 'namespace', 'agent', 'run_id', 'event_time'],
      columns: [...IDENTITY, ...cols(`
        run_id String
        search_id String
        query String
        mode LowCardinality(String)
        filters String
        top_k UInt16
        result_keys Array(String)
        result_scores Array(Float64)
        latency_ms Float64
        event_time ${DT}`)],
    }),
  ]
}

function dashboardObjects(t: ReturnType<typeof tableNames>): ObjectSpec[] {
  return [
    table(t.audit, {
      key: 'audit',
      group: 'dashboard',
      purpose: 'One row per operator action (edit, clear, restore): who, why, versions and content before and after.',
      whenMissing: 'warning',
      disables: 'Audit log on the run page and operator events in the Timeline; edits cannot record their audit row',
      engine: engine('MergeTree'),
      sortingKey: ['org', 'namespace', 'agent', 'run_id', 'at'],
      columns: [
        ...cols(`
          at ${DT}
          operator String
          action LowCardinality(String)
          reason String`),
        ...IDENTITY,
        ...cols(`
          run_id String
          block_key String
          before_version UInt64
          after_version UInt64
          before_content String
          after_content String
          request_id String
          batch_id String DEFAULT ''`),
      ],
    }),
    table(t.revokedSessions, {
      key: 'revokedSessions',
      group: 'dashboard',
      purpose: 'Login sessions ended by logout, kept until they would have expired, so a copied cookie stays refused after a restart.',
      whenMissing: 'warning',
      disables: 'Logouts are remembered only by the running server process: after a restart a logged-out cookie is accepted until it expires',
      engine: engine('MergeTree'),
      sortingKey: ['session_id'],
      columns: cols(`
        session_id String
        expires_at ${DT}
        revoked_at ${DT}`),
    }),
    table(t.history, {
      key: 'history',
      group: 'history',
      purpose: 'Append-only copy of every working-memory insert (opt-in), complete from the moment it was installed.',
      whenMissing: 'info',
      disables: 'Checkpoint tab › Versions shows only the versions merges have not collapsed yet (best effort), not the complete captured history',
      engine: engine('MergeTree'),
      sortingKey: [...WORKING_MEMORY_KEY, 'version'],
      columns: [
        ...IDENTITY,
        ...WORKING_MEMORY_COLUMNS.map(({ name, type }) => ({ name, type })),
        { name: 'captured_at', type: DT, default: 'now64(3)' },
      ],
    }),
    view(t.historyView, {
      key: 'historyView',
      group: 'history',
      purpose: `Copies each row inserted into ${t.workingMemory} into ${t.history}.`,
      whenMissing: 'info',
      disables: 'History capture: new checkpoint versions are not copied into the history table',
      target: t.history,
      source: t.workingMemory,
    }),
  ]
}

export function schemaContract(databases = getConfig().databases): Contract {
  const t = tableNames(databases)
  return {
    databases,
    objects: [...loomTables(t), ...dashboardObjects(t), ...runIndexObjects(t, databases.runs)],
  }
}

export function tableSpecs(contract: Contract): TableSpec[] {
  return contract.objects.filter((o): o is TableSpec => o.kind === 'table')
}
