import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import { buttonClass } from '../ui/button'

/** Downloads one JSON document with everything the console knows about the run. */
export function ExportButton({ runRef }: { runRef: RunRef }) {
  return (
    <a
      className={buttonClass('default', 'normal', 'story-export')}
      href={links.api.export(runRef)}
      download
      title="Run, blocks with every version, timeline, conversations, memories, searches, blobs and audit log as one JSON file"
    >
      <span aria-hidden>⤓</span> Export JSON
    </a>
  )
}
