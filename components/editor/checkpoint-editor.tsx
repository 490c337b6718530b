'use client'

import { useId, useState } from 'react'
import { editBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { parseIdList } from '@/lib/diff'
import { count } from '@/lib/format'
import { charCount } from '@/lib/loom/identity'
import { hasConflictMarkers } from '@/lib/merge/merge-contents'
import { NEAR_LIMIT_RATIO } from '@/lib/triage/flags'
import { TimeAgo } from '../ui/time-ago'
import { ContentDiff } from './content-diff'
import { IdListEditor } from './id-list-editor'
import { MergePanel } from './merge-panel'
import { Dialog } from '../ui/dialog'
import { refusalOf, useBlockWrite, type WriteRefusal } from './use-block-write'
import { contentOf, useMergeDraft } from './use-merge-draft'

function jsonState(text: string): { isJson: boolean; error: string | null } {
  const t = text.trim()
  if (!(t.startsWith('{') || t.startsWith('['))) return { isJson: false, error: null }
  try {
    JSON.parse(t)
    return { isJson: true, error: null }
  } catch (e) {
    return { isJson: true, error: e instanceof Error ? e.message : 'invalid JSON' }
  }
}

/** Edit a block: start from the version on screen, see the diff, give a reason; never overwrite a newer version. */
export function CheckpointEditor({ target, block, onClose }: { target: BlockTarget; block: Block; onClose: () => void }) {
  const [base, setBase] = useState(block)
  const edit = useMergeDraft(contentOf(block))
  const draft = edit.text
  const setDraft = edit.edit
  const [reason, setReason] = useState('')
  const [force, setForce] = useState(false)
  const [refusal, setRefusal] = useState<WriteRefusal | null>(null)
  const write = useBlockWrite(target.run, (b: Parameters<typeof editBlockRequest>[1]) => editBlockRequest(target, b), (r) => `Saved ${target.blockKey} as version ${r.block.version}`)

  const baseContent = contentOf(base)
  const merge = edit.merge
  const lockedNote = useId()
  const contentId = useId()
  const chars = charCount(draft)
  const over = chars > base.charLimit
  const wasJson = jsonState(baseContent).isJson
  const json = jsonState(draft)
  const ids = parseIdList(draft) ?? (draft.trim() === '' && parseIdList(baseContent) ? [] : null)
  const changed = draft !== baseContent
  const problems = [
    edit.locked && `${merge!.result.unresolved} conflict${merge!.result.unresolved === 1 ? '' : 's'} to resolve (keep mine or keep theirs, or edit by hand)`,
    merge?.byHand && merge.result.kind === 'text' && hasConflictMarkers(draft) && 'conflict markers (<<<<<<< … >>>>>>>) are still in the content',
    !changed && 'nothing changed yet',
    over && `over the char_limit by ${count(chars - base.charLimit)} characters`,
    (wasJson || json.isJson) && json.error && `not valid JSON: ${json.error}`,
    reason.trim() === '' && 'a reason is required',
  ].filter((p): p is string => typeof p === 'string')

  const save = () => {
    setRefusal(null)
    write.mutate(
      { content: draft, expectedVersion: base.version, reason: reason.trim(), ...(force ? { force: true } : {}) },
      {
        onSuccess: () => onClose(),
        onError: (err) => setRefusal(refusalOf(err)),
      },
    )
  }

  return (
    <Dialog title={`Edit ${target.blockKey}`} onClose={onClose} wide>
      <p className="small muted" style={{ margin: 0 }}>
        Starting from <strong className="mono">v{base.version}</strong> ({base.actor}, <TimeAgo iso={base.updatedAt} />). Saving writes
        version {`${BigInt(base.version) + 1n}`} as <span className="mono">operator</span>, exactly as Loom would; the next{' '}
        <code>resume()</code> returns it.
      </p>
      {refusal?.kind === 'conflict' ? (
        <div className="banner banner-warn stack" role="alert" style={{ alignItems: 'stretch' }}>
          <strong>{refusal.message}</strong>
          {refusal.current ? (
            <>
              <span className="small">
                Now v{refusal.current.version} by <span className="mono">{refusal.current.actor}</span>, <TimeAgo iso={refusal.current.updatedAt} />.
                What changed since you started:
              </span>
              <ContentDiff before={baseContent} after={refusal.current.isDeleted ? '' : refusal.current.content} label="Changes since you started" />
              <div className="row">
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => {
                    edit.reapply(base, refusal.current!)
                    setBase(refusal.current!)
                    setRefusal(null)
                  }}
                >
                  Re-apply my edit on top of v{refusal.current.version}
                </button>
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setBase(refusal.current!)
                    edit.reset(refusal.current!)
                    setRefusal(null)
                  }}
                >
                  Discard my edit and start from v{refusal.current.version}
                </button>
              </div>
            </>
          ) : null}
        </div>
      ) : null}
      {refusal?.kind === 'run_active' ? (
        <div className="banner banner-warn stack" role="alert" style={{ alignItems: 'stretch' }}>
          <strong>{refusal.message}</strong>
          <label className="row small">
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> I stopped the agent (or accept the
            risk): write anyway
          </label>
        </div>
      ) : null}
      {refusal?.kind === 'error' ? (
        <div className="banner banner-error" role="alert">
          {refusal.message}
        </div>
      ) : null}
      {merge ? (
        <MergePanel
          key={`${merge.from.version}→${merge.onto.version}`}
          fromVersion={merge.from.version}
          onto={merge.onto}
          theirChange={merge.theirChange}
          myChange={merge.myChange}
          result={merge.result}
          byHand={merge.byHand}
          onChoose={edit.choose}
          onChooseAll={edit.chooseAll}
          onEditByHand={edit.editByHand}
          onBackToChoices={edit.backToChoices}
        />
      ) : null}
      <div className="stack" style={{ gap: 3 }}>
        <div className="row">
          <label htmlFor={contentId} className="small muted">
            {merge ? 'Merged content' : 'New content'}
          </label>
          <span className="spacer" />
          <span className={over ? 'tag tag-bad' : chars > base.charLimit * NEAR_LIMIT_RATIO ? 'tag tag-warn' : 'small muted'} aria-live="polite">
            {count(chars)} / {count(base.charLimit)} characters
          </span>
          {json.isJson && !json.error && !edit.locked ? (
            <button type="button" className="btn btn-ghost" onClick={() => setDraft(JSON.stringify(JSON.parse(draft), null, 2))}>
              Pretty-print JSON
            </button>
          ) : null}
        </div>
        <textarea
          id={contentId}
          className="mono editor-text"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          rows={8}
          spellCheck={false}
          readOnly={edit.locked}
          aria-invalid={over || !!json.error}
          aria-describedby={edit.locked ? lockedNote : undefined}
        />
        {edit.locked ? (
          <span id={lockedNote} className="small muted">
            Follows your choices above; resolve every conflict, or choose Edit by hand to type in it.
          </span>
        ) : null}
      </div>
      {json.error && (wasJson || json.isJson) ? <p className="small" style={{ color: 'var(--bad)', margin: 0 }}>JSON error: {json.error}</p> : null}
      {ids && !edit.locked ? <IdListEditor ids={ids} onChange={(next) => setDraft(next.join(' '))} /> : null}
      <div className="panel" style={{ padding: 10 }}>
        <h3>Preview: v{base.version} → {merge ? 'the merged content' : 'your version'}</h3>
        <ContentDiff before={baseContent} after={draft} label="Diff preview" />
      </div>
      <label className="field">
        Reason (recorded in the audit log)
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} placeholder="e.g. item-121 was never embedded; redo it" required />
      </label>
      <div className="row">
        <span className="small muted">{problems.length ? `Cannot save: ${problems.join('; ')}` : 'Ready to save'}</span>
        <span className="spacer" />
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={problems.length > 0 || write.isPending} onClick={save}>
          {write.isPending ? 'Saving…' : `Save as v${BigInt(base.version) + 1n}`}
        </button>
      </div>
    </Dialog>
  )
}
