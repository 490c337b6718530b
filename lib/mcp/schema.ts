import { z } from 'zod'

/** A JSON-RPC message or a batch of them; the MCP SDK checks each message itself. */
export const mcpMessageSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))], { message: 'body must be a JSON-RPC message' })
