export { decodeCursor, encodeCursor, type RunsCursor } from '../endpoints/cursor'
