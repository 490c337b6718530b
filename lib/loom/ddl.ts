import type { TableNames } from './tables'

const IDENTITY = `
    org String,
    namespace String,
    agent String,
    user_id String,
    session_id String`

/** CREATE statements for Loom's tables, as fixed by the data contract. Never ALTER or DROP. */
export function loomTableDdl(t: TableNames): { table: string; sql: string }[] {
  return [
    {
      table: t.workingMemory,
      sql: `CREATE TABLE IF NOT EXISTS ${t.workingMemory} (${IDENTITY},
    run_id String,
    block_key String,
    content String,
    char_limit UInt32 DEFAULT 4096,
    version UInt64,
    is_deleted UInt8 DEFAULT 0,
    actor String,
    source_trace String,
    updated_at DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree(version)
ORDER BY (org, namespace, agent, user_id, session_id, run_id, block_key)`,
    },
    {
      table: t.runs,
      sql: `CREATE TABLE IF NOT EXISTS ${t.runs} (${IDENTITY},
    run_id String,
    goal String,
    user_request String,
    model String,
    environment String,
    metadata String,
    status LowCardinality(String),
    outcome String,
    final_response String,
    memories_used Array(String),
    recalled_keys Array(String),
    reflection String,
    confidence Nullable(Float64),
    attempt UInt32,
    turns UInt32,
    input_tokens UInt64,
    output_tokens UInt64,
    cost_usd Float64,
    started_at DateTime64(3, 'UTC'),
    last_begin_at DateTime64(3, 'UTC'),
    completed_at Nullable(DateTime64(3, 'UTC')),
    duration_ms Nullable(UInt64),
    version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (org, namespace, agent, run_id)`,
    },
    {
      table: t.conversations,
      sql: `CREATE TABLE IF NOT EXISTS ${t.conversations} (${IDENTITY},
    conversation_id String,
    run_id String,
    title String,
    created_at DateTime64(3, 'UTC'),
    INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1
) ENGINE = ReplacingMergeTree(created_at)
ORDER BY (org, namespace, agent, conversation_id)`,
    },
    {
      table: t.turns,
      sql: `CREATE TABLE IF NOT EXISTS ${t.turns} (${IDENTITY},
    conversation_id String,
    run_id String,
    turn_index UInt32,
    role LowCardinality(String),
    content String,
    tool_name String,
    input_tokens UInt64,
    output_tokens UInt64,
    cost_usd Float64,
    created_at DateTime64(3, 'UTC'),
    INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1
) ENGINE = MergeTree
ORDER BY (org, namespace, agent, conversation_id, turn_index)`,
    },
    {
      table: t.memory,
      sql: `CREATE TABLE IF NOT EXISTS ${t.memory} (${IDENTITY},
    memory_key String,
    memory_id String,
    memory_type LowCardinality(String),
    value String,
    run_id String,
    version UInt64,
    status LowCardinality(String),
    confidence Float64,
    pinned UInt8,
    tags Array(String),
    actor String,
    created_at DateTime64(3, 'UTC'),
    updated_at DateTime64(3, 'UTC'),
    INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1
) ENGINE = ReplacingMergeTree(version)
ORDER BY (org, namespace, agent, user_id, session_id, memory_key)`,
    },
    {
      table: t.searchTrace,
      sql: `CREATE TABLE IF NOT EXISTS ${t.searchTrace} (${IDENTITY},
    run_id String,
    search_id String,
    query String,
    mode LowCardinality(String),
    filters String,
    top_k UInt16,
    result_keys Array(String),
    result_scores Array(Float64),
    latency_ms Float64,
    event_time DateTime64(3, 'UTC')
) ENGINE = MergeTree
ORDER BY (org, namespace, agent, run_id, event_time)
TTL toDateTime(event_time) + INTERVAL 30 DAY`,
    },
    {
      table: t.contextBlobs,
      sql: `CREATE TABLE IF NOT EXISTS ${t.contextBlobs} (${IDENTITY},
    blob_key String,
    run_id String,
    summary String,
    content String,
    size_bytes UInt64,
    created_at DateTime64(3, 'UTC'),
    expires_at DateTime64(3, 'UTC'),
    INDEX run_id_idx run_id TYPE bloom_filter GRANULARITY 1
) ENGINE = MergeTree
ORDER BY (org, namespace, agent, blob_key)
TTL toDateTime(expires_at)`,
    },
  ]
}

/** The dashboard's own audit table: one row per operator action. */
export function auditTableDdl(t: TableNames): string {
  return `CREATE TABLE IF NOT EXISTS ${t.audit} (
    at DateTime64(3, 'UTC'),
    operator String,
    action LowCardinality(String),
    reason String,${IDENTITY},
    run_id String,
    block_key String,
    before_version UInt64,
    after_version UInt64,
    before_content String,
    after_content String,
    request_id String
) ENGINE = MergeTree
ORDER BY (org, namespace, agent, run_id, at)`
}

/** Append-only copy of every working-memory insert, complete from the moment it is installed. */
export function historyDdl(t: TableNames, retentionDays = 90): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${t.history} (${IDENTITY},
    run_id String,
    block_key String,
    content String,
    char_limit UInt32,
    version UInt64,
    is_deleted UInt8,
    actor String,
    source_trace String,
    updated_at DateTime64(3, 'UTC'),
    captured_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = MergeTree
ORDER BY (org, namespace, agent, user_id, session_id, run_id, block_key, version)
TTL toDateTime(updated_at) + INTERVAL ${Math.trunc(retentionDays)} DAY`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t.historyView} TO ${t.history} AS
SELECT org, namespace, agent, user_id, session_id, run_id, block_key, content, char_limit,
       version, is_deleted, actor, source_trace, updated_at
FROM ${t.workingMemory}`,
  ]
}
