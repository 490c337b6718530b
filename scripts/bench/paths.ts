import path from 'node:path'

/** Sidecar written by seed:bulk next to the data directory: scale, row counts, sample runs. */
export function metaPathFor(dataDir: string) {
  return `${path.resolve(dataDir)}.seed.json`
}

export const DEFAULT_DATA_DIR = 'bench/data/embedded'
export const QUICK_DATA_DIR = 'bench/data/embedded-quick'
