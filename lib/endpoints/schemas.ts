/**
 * The zod schemas the endpoint definitions (api.ts) name: what each endpoint takes and answers.
 * The server checks requests with them and the OpenAPI document describes the API from them.
 *
 * The browser needs none of them at run time (it builds URLs and query keys from a definition's
 * path and key, and takes its types from these schemas when compiling), so its bundle imports
 * schemas.browser.ts in their place (package.json "imports", the `browser` condition): the
 * response shapes and their descriptions stay on the server.
 */
export * as input from './inputs'
export * as batchShapes from './batches'
export * as blocks from './blocks'
export * as consoleShapes from './console'
export * as runs from './runs'
export { schemaReport } from './schema-report'
export * as story from './story'
export * as viewShapes from './views'
