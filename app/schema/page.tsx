import type { Metadata } from 'next'
import { SchemaView } from '@/components/schema/schema-view'

export const metadata: Metadata = { title: { absolute: 'Schema · Loom Runs' } }

export default function SchemaPage() {
  return <SchemaView />
}
