import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pluginQuery from '@tanstack/eslint-plugin-query'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

/** Route files that run in the browser: the boundary below must hold for them as for components. */
function clientFilesUnder(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...clientFilesUnder(path))
    else if (/\.tsx?$/.test(entry.name) && /^\s*['"]use client['"]/.test(readFileSync(path, 'utf8'))) out.push(path)
  }
  return out
}

const serverOnly =
  'A server module (ClickHouse, sessions, configuration): client code reaches it through the API, with lib/api-client and the types in lib/api/types'

/** Modules that read ClickHouse, the environment or the session; client code must not pull them into a bundle. */
const serverModules = [
  { from: './lib/clickhouse' },
  { from: './lib/queries' },
  { from: './lib/run-set' },
  { from: './lib/operator' },
  { from: './lib/server' },
  { from: './lib/net' },
  { from: './lib/http' },
  { from: './lib/demo' },
  { from: './lib/setup' },
  { from: './lib/startup' },
  { from: './lib/config.ts' },
  { from: './lib/loom', except: ['./identity.ts'] },
  { from: './lib/tables', except: ['./values.ts'] },
  { from: './lib/auth', except: ['./next-path.ts'] },
  { from: './lib/batch', except: ['./types.ts'] },
  { from: './lib/schema', except: ['./types.ts'] },
]

const config = [
  ...nextVitals,
  ...nextTs,
  ...pluginQuery.configs['flat/recommended'],
  {
    // The layers: app → components → lib, and nothing that runs in the browser reaches server modules.
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './lib',
              from: './components',
              message: 'lib holds no UI: move the shared piece into lib, or keep it in components',
            },
            { target: './lib', from: './app', message: 'lib must not depend on routes' },
            {
              target: './components',
              from: './app',
              message: 'components must not depend on routes; move the piece into components or lib',
            },
            ...serverModules.map((zone) => ({
              target: ['./components', ...clientFilesUnder('app')],
              ...zone,
              message: serverOnly,
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'react',
            'react-dom',
            'next/link',
            'next/navigation',
            'next/dynamic',
            'next/image',
            'sonner',
            'nuqs',
          ].map((name) => ({
            name,
            message: 'lib holds no React UI; components and app do',
          })),
          patterns: [
            {
              group: ['**/clickhouse/query'],
              importNames: ['queryRows', 'command', 'queryJsonArrayBytes'],
              message:
                'Use selectRows / runCommand / selectJsonArrayBytes with the sql tag, so a statement carries its own parameters',
            },
          ],
        },
      ],
    },
  },
  {
    // Every page reads its data on the server: a prefetched link renders that page (list, flags,
    // run header) in the background for each link in view, whether or not it is ever clicked.
    files: ['app/**', 'components/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.name='Link']:not(:has(JSXAttribute[name.name='prefetch']))",
          message:
            'Give <Link> prefetch={false}: prefetching renders the linked page on the server for every link in view',
        },
      ],
    },
  },
  {
    // Test helpers and Playwright fixtures are not React hooks, whatever their names.
    files: ['tests/**', 'e2e/**', 'scripts/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.next-*/**',
      '.data/**',
      'bench/data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
]

export default config
