import fs from 'node:fs'

/**
 * How the browser tests and the benchmark start Chromium: Debian's build (never a download),
 * headless, and without the background networking that floods a closed network.
 *
 * The benchmark times pages in the full browser, the one operators run (`CHROMIUM_PATH`). The
 * tests run in Debian's headless shell when it is installed (`TEST_CHROMIUM_PATH`): the same
 * Blink and V8 without the desktop browser around them, which Playwright also uses for headless
 * runs. On two cores it runs the same specs in about three quarters of the CPU time.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

export const TEST_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
