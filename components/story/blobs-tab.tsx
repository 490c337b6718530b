'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { absoluteTime, bytes, count } from '@/lib/format'
import { links } from '@/lib/links'
import type { RunRef } from '@/lib/loom/identity'
import type { RunBlob } from '@/lib/api/types'
import { runBlobsQueryOptions } from '@/lib/api-client/run-tabs'
import { Tag } from '../ui/badge'
import { bannerClass } from '../ui/banner'
import { EmptyState } from '../ui/empty-state'
import { QueryState } from '../ui/query-state'
import { SkeletonPanel } from '../ui/skeleton'
import { TimeAgo } from '../ui/time-ago'
import { ListCutNotice } from '../ui/list-cut-notice'
import { TableHead } from '../ui/table-head'
import tables from './story-tables.module.css'

type BlockVersionRef = RunBlob['referencedBy'][number]

type RefGroup = { blockKey: string; userId: string; sessionId: string; ranges: { from: string; to: string }[] }

/** Versions grouped by block and folded into runs of consecutive numbers: v1–v4, v7. */
export function groupRefs(refs: BlockVersionRef[]): RefGroup[] {
  const groups = new Map<string, RefGroup & { versions: bigint[] }>()
  for (const r of refs) {
    const key = JSON.stringify([r.blockKey, r.userId, r.sessionId])
    const g = groups.get(key) ?? {
      blockKey: r.blockKey,
      userId: r.userId,
      sessionId: r.sessionId,
      ranges: [],
      versions: [],
    }
    g.versions.push(BigInt(r.version))
    groups.set(key, g)
  }
  return [...groups.values()].map(({ versions, ...g }) => {
    const sorted = [...new Set(versions)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const ranges: { from: string; to: string }[] = []
    for (const v of sorted) {
      const last = ranges[ranges.length - 1]
      if (last && BigInt(last.to) + 1n === v) last.to = v.toString()
      else ranges.push({ from: v.toString(), to: v.toString() })
    }
    return { ...g, ranges }
  })
}

function RangeLinks({ runRef, g }: { runRef: RunRef; g: RefGroup }) {
  return (
    <>
      <span className="mono small">{g.blockKey}</span>
      {g.userId || g.sessionId ? (
        <span className="small muted">
          {' '}
          ({g.userId || '∅'} / {g.sessionId || '∅'})
        </span>
      ) : null}{' '}
      {g.ranges.map((r, i) => (
        <span key={r.from}>
          {i > 0 ? ', ' : ''}
          <Link
            prefetch={false}
            className="mono small"
            href={links.run(runRef, {
              tab: 'checkpoint',
              block: g.blockKey,
              user: g.userId || undefined,
              session: g.sessionId || undefined,
              b: r.to,
            })}
            title={`Open ${g.blockKey} v${r.to} in the Checkpoint tab`}
          >
            {r.from === r.to ? `v${r.from}` : `v${r.from}–v${r.to}`}
          </Link>
        </span>
      ))}
    </>
  )
}

/** Block versions that name a blob_key, as links into the Checkpoint tab. */
function RefList({ runRef, refs, inline = false }: { runRef: RunRef; refs: BlockVersionRef[]; inline?: boolean }) {
  if (refs.length === 0) return <span className="small muted">no version names it</span>
  const groups = groupRefs(refs)
  if (inline)
    return (
      <span className={tables.blInlineRefs}>
        {groups.map((g, i) => (
          <span key={`${g.blockKey}|${g.userId}|${g.sessionId}`}>
            {i > 0 ? '; ' : ''}
            <RangeLinks runRef={runRef} g={g} />
          </span>
        ))}
      </span>
    )
  return (
    <ul className={tables.blRefs}>
      {groups.map((g) => (
        <li key={`${g.blockKey}|${g.userId}|${g.sessionId}`}>
          <RangeLinks runRef={runRef} g={g} />
        </li>
      ))}
    </ul>
  )
}

/** The run's context offloads, their expiry, and the block versions that point at each. */
export function BlobsTab({ runRef }: { runRef: RunRef }) {
  const q = useQuery(runBlobsQueryOptions(runRef))
  return (
    <QueryState query={q} pending={<SkeletonPanel label="Loading blobs" rows={4} />} className="stack story">
      {(data) => {
        const { blobs, missing } = data
        const expired = blobs.filter((b) => b.expired).length
        const total = blobs.reduce((s, b) => s + b.sizeBytes, 0)
        return (
          <>
            <ListCutNotice
              cuts={data.cuts}
              nouns={{ blobs: 'blobs', references: 'checkpoint versions that name a blob' }}
            />
            {missing.map((m) => (
              <div
                key={m.blobKey}
                className={bannerClass('warning', tables.blMissing)}
                role="note"
                data-blob-key={m.blobKey}
              >
                <span aria-hidden className={tables.blIcon}>
                  ⚠
                </span>
                <span>
                  <strong>Missing blob</strong> <code>{m.blobKey}</code>:{' '}
                  <RefList runRef={runRef} refs={m.referencedBy} inline /> name it, but no blob row has that key. It
                  expired and was removed, or was never written; a resume that follows this blob_key will find nothing.
                </span>
              </div>
            ))}
            {blobs.length === 0 ? (
              missing.length === 0 ? (
                <EmptyState title="This run offloaded no context">No context blob carries this run_id.</EmptyState>
              ) : (
                <p className="muted small">No blob row of this run remains.</p>
              )
            ) : (
              <section className="stack story-section" aria-labelledby="bl-title">
                <h2 id="bl-title">
                  Context offloads <span className="count-pill">{count(blobs.length)}</span>
                  <span className="small muted heading-note">
                    {' '}
                    {bytes(total)} in all{expired ? ` · ${expired} expired` : ''}
                  </span>
                </h2>
                <div className="table-wrap">
                  <table className={`data ${tables.blTable}`} aria-label="Context blobs">
                    <TableHead
                      columns={[
                        'blob_key',
                        'summary',
                        { label: 'size', className: 'num' },
                        'created',
                        'expires',
                        'pointed at by',
                      ]}
                    />
                    <tbody>
                      {blobs.map((b) => (
                        <tr
                          key={b.blobKey}
                          data-blob-key={b.blobKey}
                          className={b.expired ? tables.isExpired : undefined}
                        >
                          <td className="mono">{b.blobKey}</td>
                          <td>{b.summary || <span className="muted">—</span>}</td>
                          <td className="num" title={`${count(b.sizeBytes)} bytes`}>
                            {bytes(b.sizeBytes)}
                          </td>
                          <td className="small" title={absoluteTime(b.createdAt)}>
                            <TimeAgo iso={b.createdAt} />
                          </td>
                          <td className="small">
                            {b.expired ? <Tag tone="bad">expired</Tag> : null} <TimeAgo iso={b.expiresAt} />
                          </td>
                          <td>
                            <RefList runRef={runRef} refs={b.referencedBy} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            )}
          </>
        )
      }}
    </QueryState>
  )
}
