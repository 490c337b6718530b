/** The batch routes' input schemas, declared in lib/endpoints. */
export {
  BATCH_MAX_RUNS,
  batchBodySchema,
  batchesQuerySchema,
  batchFilterSchema,
  batchIdParamsSchema,
  undoBodySchema,
  type BatchBody,
  type BatchFilter,
  type BatchRunKey,
  type UndoBody,
} from '../endpoints/inputs'
