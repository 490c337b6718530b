/**
 * What the browser bundle imports in place of schemas.ts: the same names, each of whose schemas is
 * undefined at run time. A definition in the browser keeps its method, path, role and query key;
 * its `params`, `query`, `body` and `response` are absent, which no code in the browser reads.
 */
import type * as schemas from './schemas'

/** Any schema read from it is undefined. */
const none: unknown = new Proxy({}, { get: () => undefined })

export const input = none as typeof schemas.input
export const batchShapes = none as typeof schemas.batchShapes
export const blocks = none as typeof schemas.blocks
export const consoleShapes = none as typeof schemas.consoleShapes
export const runs = none as typeof schemas.runs
export const schemaReport = undefined as unknown as typeof schemas.schemaReport
export const story = none as typeof schemas.story
export const viewShapes = none as typeof schemas.viewShapes
