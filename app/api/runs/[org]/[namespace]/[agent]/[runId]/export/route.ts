import { NextResponse } from 'next/server'
import { runPathSchema } from '@/lib/api/schemas'
import { route } from '@/lib/http/handler'
import { exportRun } from '@/lib/queries/export'

export const dynamic = 'force-dynamic'

export const GET = route(runPathSchema, async (req, run) => {
  const doc = await exportRun(run, req.signal)
  const name = `loom-run-${run.runId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.json`
  return NextResponse.json(doc, {
    headers: { 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' },
  })
})
