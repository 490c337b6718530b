import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { endpoints } from '@/lib/endpoints/api'
import { AppError } from '@/lib/errors'
import { serve } from '@/lib/http/serve'
import { buildMcpServer } from '@/lib/mcp/server'

export const dynamic = 'force-dynamic'

/**
 * The Model Context Protocol over Streamable HTTP, stateless (a server per request, JSON answers):
 * any signed-in viewer, the same sign-in, host and origin checks as the API, read-only tools.
 */
export const POST = serve(endpoints.mcp, async ({ body, who }, req) => {
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
const notHere = () => {
  throw new AppError('method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST')
}
export const GET = serve(endpoints.mcpStream, notHere)
export const DELETE = serve(endpoints.mcpSession, notHere)
