/** The shapes of batches and undos (field names are part of the API contract), declared in lib/endpoints. */
export type {
  BatchCounts,
  BatchCurrent,
  BatchDetail,
  BatchItem,
  BatchOutcome,
  BatchPreview,
  BatchRecord,
  BatchResult,
  BatchResultItem,
  KeptItem,
  KeptRequest,
  UndoPreview,
  UndoResult,
} from '../endpoints/batches'
