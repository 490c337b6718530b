'use client'

import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { blockDetailQueryOptions } from '@/lib/api-client/run-detail'
import { editBlockRequest, type BlockTarget } from '@/lib/api-client/writes'
import type { Block } from '@/lib/api/types'
import { parseIdList } from '@/lib/diff'
import { count } from '@/lib/format'
import { charCount } from '@/lib/tables/values'
import { hasConflictMarkers } from '@/lib/merge/merge-contents'
import { NEAR_LIMIT_RATIO } from '@/lib/triage/flags'
import { Button } from '../ui/button'
import { TimeAgo } from '../ui/time-ago'
import { ContentDiff } from './content-diff'
import { EditRedo } from './replay-note'
import { IdListEditor } from './id-list-editor'
import { MergePanel } from './merge-panel'
import { ConflictWayOut } from './conflict-way-out'
import { RefusalBanner } from './refusal-banner'
import { useWriteForm, type WriteRefusal } from './use-block-write'
import { contentOf, useMergeDraft } from './use-merge-draft'
import { WriteDialog } from './write-dialog'
import styles from './write-dialog.module.css'
import { bindText } from '../ui/bind-text'

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
export function CheckpointEditor({
  target,
  block,
  onClose,
}: {
  target: BlockTarget
  block: Block
  onClose: () => void
}) {
  const [base, setBase] = useState(block)
  const edit = useMergeDraft(contentOf(block))
  const draft = edit.text
  const setDraft = edit.edit
  const { reason, setReason, force, setForce, refusal, setRefusal, write, submit } = useWriteForm(
    target.run,
    (b: Parameters<typeof editBlockRequest>[1]) => editBlockRequest(target, b),
    (r) => `Saved ${target.blockKey} as version ${r.block.version}`,
  )

  // The block as the server has it now: read again on opening (the page may be stale) and every
  // 15 s while editing, so the editor knows the block moved before a save is refused.
  const latest = useQuery({
    ...blockDetailQueryOptions(target.run, {
      blockKey: target.blockKey,
      userId: target.userId,
      sessionId: target.sessionId,
    }),
    refetchOnMount: 'always',
    refetchInterval: 15_000,
  }).data?.block
  const movedTo =
    refusal?.kind === 'conflict'
      ? refusal.current
      : latest && /^\d+$/.test(latest.version) && BigInt(latest.version) > BigInt(base.version)
        ? latest
        : null
  const shownRefusal: WriteRefusal | null =
    refusal ??
    (movedTo
      ? {
          kind: 'conflict',
          current: movedTo,
          message: `The block moved on since you started from v${base.version}: v${movedTo.version} is the latest now. Saving would be refused; re-apply your edit on top of it, or start from it.`,
        }
      : null)

  const baseContent = contentOf(base)
  const merge = edit.merge
  const lockedNote = useId()
  const hintId = useId()
  const contentId = useId()
  const chars = charCount(draft)
  const over = chars > base.charLimit
  const wasJson = jsonState(baseContent).isJson
  const json = jsonState(draft)
  const ids = parseIdList(draft) ?? (draft.trim() === '' && parseIdList(baseContent) ? [] : null)
  const changed = draft !== baseContent
  const problems = [
    shownRefusal?.kind === 'conflict' &&
      `v${base.version} is no longer the latest${shownRefusal.current ? ` (v${shownRefusal.current.version} is)` : ''}: re-apply your edit on top of it, or start from it`,
    edit.locked &&
      `${merge!.result.unresolved} conflict${merge!.result.unresolved === 1 ? '' : 's'} to resolve (keep mine or keep theirs, or edit by hand)`,
    merge?.byHand &&
      merge.result.kind === 'text' &&
      hasConflictMarkers(draft) &&
      'conflict markers (<<<<<<< … >>>>>>>) are still in the content',
    !changed && 'nothing changed yet',
    over && `over the char_limit by ${count(chars - base.charLimit)} characters`,
    (wasJson || json.isJson) && json.error && `not valid JSON: ${json.error}`,
    reason.trim() === '' && 'a reason is required',
  ].filter((p): p is string => typeof p === 'string')

  const save = () => {
    setRefusal(null)
    submit({ content: draft, expectedVersion: base.version }, () => onClose())
  }

  const conflictWayOut =
    shownRefusal?.kind === 'conflict' && shownRefusal.current ? (
      <ConflictWayOut
        baseContent={baseContent}
        current={shownRefusal.current}
        onReapply={(current) => {
          edit.reapply(base, current)
          setBase(current)
          setRefusal(null)
        }}
        onDiscard={(current) => {
          setBase(current)
          edit.reset(current)
          setRefusal(null)
        }}
      />
    ) : null

  return (
    <WriteDialog
      title={`Edit ${target.blockKey}`}
      wide
      onClose={onClose}
      lead={
        <p className={`small muted ${styles.lead}`}>
          Starting from <strong className="mono">v{base.version}</strong> ({base.actor},{' '}
          <TimeAgo iso={base.updatedAt} />
          ). Saving writes version {`${BigInt(base.version) + 1n}`} as <span className="mono">operator</span>, exactly
          as Loom would; the next <code>resume()</code> returns it.
        </p>
      }
      refusal={<RefusalBanner refusal={shownRefusal} force={force} onForce={setForce} conflict={conflictWayOut} />}
      reason={{ value: reason, onChange: setReason, placeholder: 'e.g. item-121 was never embedded; redo it' }}
      hint={problems.length ? `Cannot save: ${problems.join('; ')}` : 'Ready to save'}
      hintId={hintId}
      confirm={{
        label: write.isPending ? 'Saving…' : `Save as v${BigInt(base.version) + 1n}`,
        variant: 'primary',
        disabled: problems.length > 0 || write.isPending,
        onConfirm: save,
      }}
    >
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
      <div className={styles.content}>
        <div className="row">
          <label htmlFor={contentId} className="small muted">
            {merge ? 'Merged content' : 'New content'}
          </label>
          <span className="spacer" />
          <span
            className={
              over ? 'tag tag-bad' : chars > base.charLimit * NEAR_LIMIT_RATIO ? 'tag tag-warn' : 'small muted'
            }
            aria-live="polite"
          >
            {count(chars)} / {count(base.charLimit)} characters
          </span>
          {json.isJson && !json.error && !edit.locked ? (
            <Button variant="ghost" onClick={() => setDraft(JSON.stringify(JSON.parse(draft), null, 2))}>
              Pretty-print JSON
            </Button>
          ) : null}
        </div>
        <textarea
          id={contentId}
          className="mono editor-text"
          {...bindText(draft, setDraft)}
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
      {json.error && (wasJson || json.isJson) ? (
        <p className={`small ${styles.error}`}>JSON error: {json.error}</p>
      ) : null}
      {ids && !edit.locked ? <IdListEditor ids={ids} onChange={(next) => setDraft(next.join(' '))} /> : null}
      <div className={`panel ${styles.preview}`}>
        <h3>
          Preview: v{base.version} → {merge ? 'the merged content' : 'your version'}
        </h3>
        <ContentDiff before={baseContent} after={draft} label="Diff preview" />
        <EditRedo current={baseContent} draft={draft} version={base.version} />
      </div>
    </WriteDialog>
  )
}
