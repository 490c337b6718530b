import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { requireSameOrigin, requireViewer } from '@/lib/auth/current'
import { AppError } from '@/lib/errors'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'
import { mcpMessageSchema } from '@/lib/api/schemas'
import { buildMcpServer } from '@/lib/mcp/server'

export const dynamic = 'force-dynamic'

/**
 * The Model Context Protocol over Streamable HTTP, stateless (a server per request, JSON answers):
 * any signed-in viewer, the same sign-in, host and origin checks as the API, read-only tools.
 */
export const POST = route(null, async (req) => {
  // A page of another origin may not drive it (the API's own rule); MCP clients send no Origin.
  requireSameOrigin(req)
  const who = await requireViewer(req)
  const body = await readJsonBody(req, mcpMessageSchema)
  const server = buildMcpServer(who, req.signal)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(req, { parsedBody: body })
  } finally {
    void server.close()
  }
})

/** Stateless: no server-to-client stream and no session to end. */
const notHere = route(null, async () => {
  throw new AppError('method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST')
})
export const GET = notHere
export const DELETE = notHere
