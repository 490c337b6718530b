import styles from '../_components/state.module.css'

/** Shown while the server reads the first page of runs: the page's shapes, so nothing jumps when it arrives. */
export default function Loading() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading" role="status">
      <div className={styles.heading}>
        <div className="skeleton" style={{ width: 120, height: 26 }} />
        <div className="skeleton" style={{ width: '50%' }} />
      </div>
      <div className="panel stack">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="skeleton" />
        ))}
      </div>
    </div>
  )
}
