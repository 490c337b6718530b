import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Test helpers and Playwright fixtures are not React hooks, whatever their names.
    files: ['tests/**', 'e2e/**', 'scripts/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    ignores: ['node_modules/**', '.next/**', '.next-*/**', '.data/**', 'bench/data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'],
  },
]

export default config
