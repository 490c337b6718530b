import styles from '../run-page.module.css'

/** Shown while the server reads the run: the header's and tabs' shapes, so nothing jumps when they arrive. */
export default function RunPageLoading() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading run" role="status">
      <div className="panel stack">
        <div className="skeleton" style={{ width: '45%', height: 22 }} />
        <div className={styles.figures}>
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="skeleton" style={{ height: 34 }} />
          ))}
        </div>
      </div>
      <div className="skeleton" style={{ height: 32 }} />
      <div className="panel stack">
        <div className="skeleton" style={{ width: '35%', height: 18 }} />
        <div className="skeleton" />
        <div className="skeleton" style={{ width: '80%' }} />
        <div className="skeleton" style={{ height: 120 }} />
      </div>
    </div>
  )
}
