/**
 * Node's flags for running the console's server modules outside Next (scripts, tests, helper
 * processes): tsx for TypeScript, and the `react-server` export condition, under which the
 * `server-only` marker those modules import resolves to an empty module, as it does in Next's
 * server bundles. A client bundle that reaches one of them fails the build instead.
 */
export const SERVER_NODE_ARGS = ['--conditions=react-server', '--import', 'tsx'] as const
