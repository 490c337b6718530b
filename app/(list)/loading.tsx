import styles from '../_components/state.module.css'
import { Skeleton } from '@/components/ui/skeleton'

/** Shown while the server reads the first page of runs: the page's shapes, so nothing jumps when it arrives. */
export default function Loading() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading" role="status">
      <div className={styles.heading}>
        <Skeleton width={120} height={26} />
        <Skeleton width="50%" />
      </div>
      <div className="panel stack">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} />
        ))}
      </div>
    </div>
  )
}
