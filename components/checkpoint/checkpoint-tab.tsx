'use client'

import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { RunRef } from '@/lib/loom/identity'
import {
  blockDetailQueryOptions,
  runBlockSummariesQueryOptions,
  runDetailQueryOptions,
} from '@/lib/api-client/run-detail'
import { BlockActions } from '../editor/block-actions'
import { Button } from '../ui/button'
import { EmptyNote } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { SkeletonPanel } from '../ui/skeleton'
import { Tag } from '../ui/badge'
import { BlockPicker } from './block-picker'
import { CheckpointFlags } from './checkpoint-flags'
import { DiffPanel } from './diff-panel'
import { defaultChoice, groupByIdentity, idValue, type BlockChoice } from './block-choice'
import { ResumeExplainer } from './resume-explainer'
import { ResumeFlowDiagram } from './resume-flow-diagram'
import { useCheckpointSelection } from './use-checkpoint-selection'
import { defaultPair, versionEntries } from './version-rows'
import { VersionsPanel } from './versions-panel'
import ck from './checkpoint.module.css'

/** "Why did this run resume where it did?": one block's resume explainer, flags, flow, versions and diffs. */
export function CheckpointTab({ runRef }: { runRef: RunRef }) {
  const [sel, setSel] = useCheckpointSelection()
  const blocksQuery = useQuery(runBlockSummariesQueryOptions(runRef))
  const blocks = blocksQuery.data?.blocks
  const run = useQuery(runDetailQueryOptions(runRef))
  const groups = useMemo(() => groupByIdentity(blocks ?? []), [blocks])
  const diffRef = useRef<HTMLElement>(null)
  // Bumped by the Compare buttons above the versions: bring the diff into view and move focus to it.
  const [reveal, setReveal] = useState(0)
  useEffect(() => {
    const el = diffRef.current
    if (reveal === 0 || !el) return
    el.scrollIntoView({
      block: 'start',
      behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
    })
    el.focus({ preventScroll: true })
  }, [reveal])

  let choice: BlockChoice | null = null
  if (sel.block !== null) choice = { blockKey: sel.block, userId: sel.user ?? '', sessionId: sel.session ?? '' }
  else if (blocks) {
    choice = defaultChoice(groups)
    // No blocks at all: still ask about the run's own checkpoint, whose near misses may explain why.
    if (!choice && run.data)
      choice = { blockKey: 'checkpoint', userId: run.data.run.userId, sessionId: run.data.run.sessionId }
  }

  const detail = useQuery({
    ...blockDetailQueryOptions(runRef, choice ?? { blockKey: '', userId: '', sessionId: '' }),
    enabled: choice !== null,
    // A running run keeps writing: follow it.
    refetchInterval: run.data?.run.status === 'running' ? 10_000 : false,
  })
  const entries = useMemo(() => (detail.data ? versionEntries(detail.data) : []), [detail.data])

  const known = (id: string | null) => (id !== null && entries.some((e) => e.id === id) ? id : null)
  const b = known(sel.b) ?? defaultPair(entries).b
  const a = sel.a !== null ? known(sel.a) : defaultPair(entries, b).a

  const select = (c: BlockChoice) =>
    setSel({ block: c.blockKey, user: c.userId || null, session: c.sessionId || null, a: null, b: null })
  // Picking versions replaces the history entry: arrowing through radio buttons should not fill the back button.
  const compare = (na: string | null, nb: string | null) => setSel({ a: na, b: nb }, { history: 'replace' })
  const compareAndShow = (na: string | null, nb: string | null) => {
    compare(na, nb)
    setReveal((n) => n + 1)
  }
  const compareVersions = (from: string, to: string) => {
    const id = (v: string) => entries.find((e) => e.block.version === v)?.id ?? v
    compareAndShow(id(from), id(to))
  }

  const picker = (
    <QueryState
      query={blocksQuery}
      // The checkpoint's own banner beside the list already says the tab shows the last data received.
      staleBanner={false}
      pending={<SkeletonPanel label="Loading blocks" rows={3} />}
      isEmpty={(data) => data.blocks.length === 0}
      empty={<EmptyNote className={ck.pickerEmpty}>This run has no blocks.</EmptyNote>}
    >
      {(data) => (
        <BlockPicker
          blocks={data.blocks}
          selected={choice ?? { blockKey: '', userId: '', sessionId: '' }}
          onSelect={select}
        />
      )}
    </QueryState>
  )

  const inList =
    !!choice &&
    groups.some(
      (g) =>
        g.userId === choice.userId &&
        g.sessionId === choice.sessionId &&
        g.blocks.some((x) => x.blockKey === choice.blockKey),
    )

  let main: React.ReactNode
  const loading = <SkeletonPanel label="Loading checkpoint" rows={3} />
  if (!choice) main = blocks && blocks.length === 0 && !run.isPending ? null : loading
  else {
    const chosen = choice
    main = (
      <QueryState query={detail} pending={loading}>
        {(data) => (
          <>
            <section className={`panel ${ck.explainer}`} aria-label="Resume explainer">
              <div className={`row ${ck.explainerBar}`}>
                <h2 className={ck.explainerTitle}>
                  <span className="mono">{chosen.blockKey}</span>
                  <span className={`small muted ${ck.identity}`}>
                    {' '}
                    · user {idValue(chosen.userId)} · session {idValue(chosen.sessionId)}
                  </span>
                </h2>
                {!inList && blocks && blocks.length > 0 ? (
                  <Tag tone="warning">not among this run&apos;s blocks</Tag>
                ) : null}
                <span className="spacer" />
                <BlockActions
                  runRef={runRef}
                  choice={chosen}
                  block={data.block}
                  picked={entries.find((e) => e.id === b)?.block ?? null}
                />
                <Button variant="ghost" onClick={() => detail.refetch()} disabled={detail.isFetching}>
                  {detail.isFetching ? 'Refreshing…' : '↻ Refresh'}
                </Button>
              </div>
              <div className={data.resume.segments.length ? ck.explainerGrid : undefined}>
                <div className="stack">
                  <ResumeExplainer runRef={runRef} choice={chosen} detail={data} onCompareVersions={compareVersions} />
                  <CheckpointFlags
                    runRef={runRef}
                    choice={chosen}
                    detail={data}
                    entries={entries}
                    onSelect={select}
                    onCompare={compareAndShow}
                  />
                </div>
                {data.resume.segments.length ? (
                  <ResumeFlowDiagram
                    resume={data.resume}
                    identity={{ agent: runRef.agent, userId: chosen.userId, sessionId: chosen.sessionId }}
                  />
                ) : null}
              </div>
            </section>
            <VersionsPanel detail={data} entries={entries} a={a} b={b} onCompare={compare} />
            {entries.length > 0 ? <DiffPanel ref={diffRef} entries={entries} a={a} b={b} onChange={compare} /> : null}
          </>
        )}
      </QueryState>
    )
  }

  return (
    <div className={ck.layout}>
      <aside className={ck.aside}>{picker}</aside>
      <div className={`stack ${ck.main}`}>{main}</div>
    </div>
  )
}
