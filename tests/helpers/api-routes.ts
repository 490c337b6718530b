import { POST as login } from '../../app/api/auth/login/route'
import { POST as logout } from '../../app/api/auth/logout/route'
import { GET as analytics } from '../../app/api/runs/analytics/route'
import { GET as changes } from '../../app/api/runs/changes/route'
import { GET as runs } from '../../app/api/runs/route'
import { GET as audit } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/audit/route'
import { GET as blobs } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blobs/route'
import * as block from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/route'
import { POST as restore } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/[blockKey]/restore/route'
import { GET as blocks } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/blocks/route'
import { GET as conversations } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/conversations/route'
import { GET as exportDoc } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/export/route'
import { GET as memories } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/memories/route'
import { GET as run } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/route'
import { GET as searches } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/searches/route'
import { GET as timeline } from '../../app/api/runs/[org]/[namespace]/[agent]/[runId]/timeline/route'

/**
 * The API's route handlers. Names follow the resource; a block's writes are put, del, restore.
 * Importing them reads no configuration: the test file may point it at its own engine afterwards.
 */
export const apiRoutes = {
  login,
  logout,
  runs,
  analytics,
  changes,
  run,
  blocks,
  block: block.GET,
  put: block.PUT,
  del: block.DELETE,
  restore,
  timeline,
  conversations,
  memories,
  searches,
  blobs,
  audit,
  exportDoc,
}
