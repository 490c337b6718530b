import { requireSignedInWrite, requireViewer } from '@/lib/auth/current'
import { readJsonBody } from '@/lib/http/body'
import { route } from '@/lib/http/handler'
import { viewIdParamsSchema, viewPatchSchema } from '@/lib/views/schema'
import { deleteView, getView, updateView } from '@/lib/views/store'

export const dynamic = 'force-dynamic'

export const GET = route(viewIdParamsSchema, async (req, { id }) => ({
  view: await getView(id.toLowerCase(), await requireViewer(req), req.signal),
}))

/** Renames, refilters, shares or sets the alert of a view: its owner while private, an operator once shared. */
export const PUT = route(viewIdParamsSchema, async (req, { id }) => {
  const who = await requireSignedInWrite(req)
  const patch = await readJsonBody(req, viewPatchSchema)
  return { view: await updateView(id.toLowerCase(), patch, who, req.signal) }
})

export const DELETE = route(viewIdParamsSchema, async (req, { id }) =>
  deleteView(id.toLowerCase(), await requireSignedInWrite(req), req.signal),
)
