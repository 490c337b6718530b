// Child process: opens an embedded data directory (taking its lock), says so, holds it until killed.
import { createClient } from '@clickhouse/client'
import { createChdbConnection } from 'chdb/connection'

type ConnectionParam = NonNullable<Parameters<typeof createClient>[0]>['connection']
const client = createClient({
  connection: createChdbConnection({ path: process.argv[2] }) as unknown as ConnectionParam,
})
client.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then(() => {
  process.stdout.write('holding\n')
  setInterval(() => undefined, 1000)
})
