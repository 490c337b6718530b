import { createMissingSchema } from '../lib/loom/init'
import { installDerived } from '../lib/derived/install'
import { deriveNow } from '../lib/derived/derive'
import { seedDemo } from '../lib/demo/seed'
import { queryRows } from '../lib/clickhouse/query'
import { z } from 'zod'

async function main() {
  const t0 = Date.now()
  await createMissingSchema({ history: true })
  if (process.argv.includes('--seed-first')) { await seedDemo({ seed: 42 }); console.log('seeded', Date.now() - t0) }
  try {
    const r = await installDerived({ onStep: (s) => console.log('..', s) })
    console.log('installed', r.elapsedMs)
  } catch (e) { console.error('ERR', String(((e as Error & {cause?: Error}).cause ?? e as Error).message).slice(0, 600)); process.exit(1) }
  if (!process.argv.includes('--seed-first')) { await seedDemo({ seed: 42 }); console.log('seeded', Date.now() - t0) }
  try { console.log(await deriveNow()) } catch (e) { console.error('ERR', String(((e as Error & {cause?: Error}).cause ?? e as Error).message).slice(0, 600)); process.exit(1) }
  for (const tb of ['run_index', 'run_index_flags', 'run_index_orphans', 'run_index_checkpoints', 'run_index_candidates', 'run_index_rollup_state', 'run_index_rollup_sums', 'derive_log']) {
    const r = await queryRows(`SELECT count() AS n FROM loom_runs.${tb}`, {}, z.object({ n: z.coerce.number() }))
    console.log(tb, r[0].n)
  }
  console.log(await deriveNow())
  process.exit(0)
}
main()
