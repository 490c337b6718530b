'use client'

import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { BlockDetail } from '@/lib/api/types'
import { FLOW_LIST_THRESHOLD, flowNodes, type FlowNode } from '@/lib/resume/mermaid'
import type { Identity } from '@/lib/resume/types'
import styles from './resume-flow.module.css'
import { useTheme } from './use-theme'
import { Button } from '../ui/button'
import { Skeleton } from '../ui/skeleton'

type Rendered = { key: string; svg: string | null; error: string | null }

let renderCount = 0

/** Mermaid draws labels at 16 px; these zoom levels keep them at 12 px or more. */
const ZOOMS = [0.75, 1, 1.25, 1.5] as const

/**
 * The run's resume flow, drawn client-side by mermaid from the flowchart text the API built, at its
 * natural size in a scrolling box (never shrunk to fit), with zoom steps that keep text readable.
 * Past FLOW_LIST_THRESHOLD nodes it is a list of the same lines instead.
 * securityLevel 'strict' makes mermaid sanitize its own output, which is the only HTML this tab injects.
 */
export function ResumeFlowDiagram({ resume, identity }: { resume: BlockDetail['resume']; identity: Identity }) {
  const nodes = useMemo(
    () => flowNodes(resume.segments, resume.points, identity, resume.attempts),
    [resume.segments, resume.points, identity, resume.attempts],
  )
  const asList = nodes.length > FLOW_LIST_THRESHOLD
  return (
    <figure className={styles.flow} aria-label="Resume flow diagram">
      {asList ? <FlowList nodes={nodes} /> : <FlowSvg text={resume.mermaid} />}
      <figcaption className="small muted">
        {asList
          ? `${nodes.length} steps, listed in order (too many to draw readably): each box a process segment or operator actions, each arrow what started the next.`
          : 'Process segments (boxes), operator actions (hexagons; a clear is a trapezoid), what started the next one (arrows), tombstones (circles), a checkpoint under another identity that a resume did not see (double-sided boxes).'}{' '}
        <details className={styles.inlineDetails}>
          <summary>mermaid source</summary>
          <pre className="content">{resume.mermaid}</pre>
        </details>
      </figcaption>
    </figure>
  )
}

function FlowList({ nodes }: { nodes: FlowNode[] }) {
  return (
    <ol className={styles.list} aria-label="Resume flow steps">
      {nodes.map((n) => (
        <li key={n.id}>
          {n.from?.label ? <div className={styles.edge}>{n.from.label}</div> : null}
          <div
            className={`${styles.node} ${n.shape === 'operator' || n.shape === 'operator-clear' ? styles.operator : ''} ${n.shape === 'tombstone' ? styles.tombstone : ''}`}
          >
            {n.lines.map((line, i) => (
              <p key={i}>{line}</p>
            ))}
          </div>
          {n.to ? <div className={styles.edge}>{n.to.label}, into the next step</div> : null}
        </li>
      ))}
    </ol>
  )
}

function FlowSvg({ text }: { text: string }) {
  const theme = useTheme()
  const baseId = `ck-flow-${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const key = `${theme}\u0000${text}`
  const [rendered, setRendered] = useState<Rendered | null>(null)
  const [zoom, setZoom] = useState<number>(1)
  const [fits, setFits] = useState(true)
  const viewport = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (theme === null) return
    let cancelled = false
    const id = `${baseId}-${++renderCount}`
    const draw = async () => {
      try {
        const { default: mermaid } = await import('mermaid')
        // useMaxWidth off: the SVG keeps its natural size instead of shrinking its text to the box width.
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: theme === 'dark' ? 'dark' : 'default',
          flowchart: { useMaxWidth: false },
        })
        const { svg } = await mermaid.render(id, text)
        if (!cancelled) setRendered({ key, svg, error: null })
      } catch (err) {
        // A failed render can leave mermaid's scratch element in the body.
        document.getElementById(id)?.remove()
        document.getElementById(`d${id}`)?.remove()
        if (!cancelled) setRendered({ key, svg: null, error: err instanceof Error ? err.message : String(err) })
      }
    }
    void draw()
    return () => {
      cancelled = true
    }
  }, [baseId, key, text, theme])

  const current = rendered?.key === key ? rendered : null
  if (current?.error) {
    return (
      <p className="text-bad small" role="alert">
        Could not draw the diagram: {current.error}
      </p>
    )
  }
  if (!current?.svg) {
    return (
      <div className={styles.flowLoading} aria-busy="true" aria-label="Drawing the diagram">
        <Skeleton height={60} width="70%" />
        <Skeleton height={60} width="70%" />
      </div>
    )
  }
  const at = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number])
  return (
    <>
      <div className={styles.toolbar} role="group" aria-label="Diagram zoom">
        <Button
          size="small"
          onClick={() => setZoom(ZOOMS[Math.max(0, at - 1)])}
          disabled={at <= 0}
          aria-label="Zoom out"
        >
          −
        </Button>
        <span className={`small muted ${styles.zoomValue}`}>{Math.round(zoom * 100)}%</span>
        <Button
          size="small"
          onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, at + 1)])}
          disabled={at >= ZOOMS.length - 1}
          aria-label="Zoom in"
        >
          +
        </Button>
        <span className="small muted" data-fits={fits ? 'true' : 'false'}>
          {fits
            ? 'The whole diagram fits the box.'
            : 'Larger than the box even at 75%: scroll the box to see all of it.'}
        </span>
      </div>
      <div ref={viewport} className={styles.viewport} tabIndex={0} role="region" aria-label="Resume flow, scrollable">
        <div className={styles.canvas} style={{ zoom }} dangerouslySetInnerHTML={{ __html: current.svg }} />
      </div>
      <FitOnDraw
        drawnKey={current.key}
        viewport={viewport}
        onFit={(z, whole) => {
          setZoom(z)
          setFits(whole)
        }}
      />
    </>
  )
}

/**
 * Once per drawing: the largest zoom step (up to 100 %) at which the whole diagram fits its box, so a
 * final tombstone or a last attempt is never hidden until panned; the smallest step when none fits.
 */
function FitOnDraw({
  drawnKey,
  viewport,
  onFit,
}: {
  drawnKey: string
  viewport: React.RefObject<HTMLDivElement | null>
  onFit: (zoom: number, fits: boolean) => void
}) {
  const fitted = useRef<string | null>(null)
  useLayoutEffect(() => {
    const box = viewport.current
    const svg = box?.querySelector('svg')
    if (!box || !svg || fitted.current === drawnKey) return
    fitted.current = drawnKey
    const natural = svg.getBoundingClientRect()
    const zoomNow = Number(getComputedStyle(svg.parentElement as Element).zoom) || 1
    const w = natural.width / zoomNow
    const h = natural.height / zoomNow
    const maxH = parseFloat(getComputedStyle(box).maxHeight) || Infinity
    const room = (z: number) => w * z <= box.clientWidth && h * z <= maxH
    const steps = ZOOMS.filter((z) => z <= 1)
    const best = [...steps].reverse().find(room)
    onFit(best ?? steps[0], best !== undefined)
  })
  return null
}
