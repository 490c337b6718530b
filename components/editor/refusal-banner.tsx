import type { WriteRefusal } from './use-block-write'

/** Why the server refused a clear or restore; for a run still writing, the operator may force it. */
export function RefusalBanner({ refusal, force, onForce }: { refusal: WriteRefusal | null; force: boolean; onForce: (v: boolean) => void }) {
  if (!refusal) return null
  return (
    <div className={`banner ${refusal.kind === 'error' ? 'banner-error' : 'banner-warn'}`} role="alert">
      {refusal.message}
      {refusal.kind === 'run_active' ? (
        <label className="row small">
          <input type="checkbox" checked={force} onChange={(e) => onForce(e.target.checked)} /> write anyway
        </label>
      ) : null}
    </div>
  )
}
