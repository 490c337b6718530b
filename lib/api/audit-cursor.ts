export { decodeAuditCursor, encodeAuditCursor, type AuditCursor } from '../endpoints/cursor'
