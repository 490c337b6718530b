import styles from '../run-page.module.css'
import { Skeleton } from '@/components/ui/skeleton'

/** Shown while the server reads the run: the header's and tabs' shapes, so nothing jumps when they arrive. */
export default function RunPageLoading() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading run" role="status">
      <div className="panel stack">
        <Skeleton width="45%" height={22} />
        <div className={styles.figures}>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={34} />
          ))}
        </div>
      </div>
      <Skeleton height={32} />
      <div className="panel stack">
        <Skeleton width="35%" height={18} />
        <Skeleton />
        <Skeleton width="80%" />
        <Skeleton height={120} />
      </div>
    </div>
  )
}
