/**
 * Seeds a fresh embedded engine in this process and prints the digest of the demo tables
 * as the last line of stdout: `tsx tests/helpers/demo-digest-cli.ts <seed> <nowIso>`.
 * Used by tests/demo.test.ts to check that two seedings with the same seed and now agree.
 */
import { seedDemo } from '../../lib/demo/seed'
import { useFreshEngine } from './engine'
import { digestDemoTables } from './demo-digest'

async function main() {
  const [seedArg, nowArg] = process.argv.slice(2)
  useFreshEngine('demo-digest')
  await seedDemo({ seed: Number(seedArg), now: new Date(nowArg) })
  process.stdout.write(`${JSON.stringify(await digestDemoTables())}\n`)
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
