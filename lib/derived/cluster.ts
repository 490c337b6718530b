/**
 * DDL for a ClickHouse cluster (`LOOM_RUNS_CLUSTER=name`): each CREATE and DROP runs `ON CLUSTER`,
 * and each MergeTree-family engine becomes its Replicated form with the server's default path and
 * replica name (`default_replica_path` / `default_replica_name`), so every replica holds the
 * console's tables. Without a cluster the statement is returned unchanged.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export function checkClusterName(cluster: string): string {
  if (!NAME.test(cluster))
    throw new Error(`LOOM_RUNS_CLUSTER: "${cluster}" is not a cluster name (letters, digits and _)`)
  return cluster
}

export function forCluster(statement: string, cluster: string | undefined): string {
  if (!cluster) return statement
  const on = ` ON CLUSTER ${checkClusterName(cluster)}`
  const withOn = statement.replace(
    /^(\s*(?:CREATE\s+(?:TABLE|MATERIALIZED\s+VIEW|DATABASE)(?:\s+IF\s+NOT\s+EXISTS)?|DROP\s+(?:TABLE|VIEW|DATABASE)(?:\s+IF\s+EXISTS)?)\s+[\w.`]+)/i,
    `$1${on}`,
  )
  // `ENGINE = ReplacingMergeTree(version)` → `ENGINE = ReplicatedReplacingMergeTree(version)`; the
  // arguments stay (the path and replica name come from the server's defaults).
  return withOn.replace(/\bENGINE\s*=\s*(\w*)MergeTree\b/g, (_m, kind: string) => `ENGINE = Replicated${kind}MergeTree`)
}
