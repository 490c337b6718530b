/** Runs once when the server starts: validate configuration, prepare the embedded database. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { startServer } = await import('./lib/startup/start')
  await startServer()
}
