/** Prints the scrypt hash for a password, to put in LOOM_RUNS_USERS as name:role:<hash>. */
import { hashPassword } from '../lib/auth/passwords'

const password = process.argv[2] ?? process.env.LOOM_RUNS_PASSWORD
if (!password) {
  console.error('usage: npm run user:hash -- <password>   (or LOOM_RUNS_PASSWORD=... npm run user:hash)')
  process.exit(2)
}
hashPassword(password).then((hash) => console.log(hash))
