/**
 * Where-clauses that narrow working-memory reads to one run. `user_id` and `session_id` sit before
 * `run_id` in that table's sorting key, so `run_id` alone leaves ClickHouse reading the agent's
 * whole range; with the run index installed, the run's (user_id, session_id) pairs come from it and
 * bind the whole prefix. Same rows either way: the index holds every pair the run ever wrote under.
 */
import { indexNames, runIndexReady } from './run-index'

const RUN_KEY_SCOPE =
  'org = {org:String} AND namespace = {namespace:String} AND agent = {agent:String} AND run_id = {run_id:String}'

/**
 * The WHERE clause for one run's rows in working memory (or its history copy), with the run's
 * parameters (org, namespace, agent, run_id).
 */
export async function wmRunScope(signal?: AbortSignal): Promise<string> {
  if (!(await runIndexReady(signal))) return RUN_KEY_SCOPE
  return `${RUN_KEY_SCOPE} AND (user_id, session_id) IN (SELECT user_id, session_id FROM ${indexNames().sessions}
    WHERE org = {org:String} AND namespace = {namespace:String} AND run_id = {run_id:String} AND agent = {agent:String})`
}

/**
 * Narrows a namespace-wide working-memory read for one run_id (parameters org, namespace,
 * run_id) to the identities that run wrote under, when the index is installed; '1' otherwise.
 */
export async function wmRunIdentities(signal?: AbortSignal): Promise<string> {
  if (!(await runIndexReady(signal))) return '1'
  return `(agent, user_id, session_id) IN (SELECT agent, user_id, session_id FROM ${indexNames().sessions}
    WHERE org = {org:String} AND namespace = {namespace:String} AND run_id = {run_id:String})`
}
