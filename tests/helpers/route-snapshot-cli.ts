/**
 * Seeds a fresh embedded engine (contract names, no mapping) with the demo and prints the route
 * snapshot as JSON: `tsx tests/helpers/route-snapshot-cli.ts <seed> <nowIso> <out.json>`.
 */
import fs from 'node:fs'
import { useFreshEngine } from './engine'
import { prepareSnapshotEngine } from './snapshot-engine'

async function main() {
  const [seedArg, nowArg, outFile] = process.argv.slice(2)
  useFreshEngine('route-snapshot', { LOOM_RUNS_SCHEMA_MAP: '' })
  const snapshot = await prepareSnapshotEngine(Number(seedArg), new Date(nowArg))
  fs.writeFileSync(outFile, JSON.stringify(snapshot))
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
