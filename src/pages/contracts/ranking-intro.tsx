import { useQuery } from '@tanstack/react-query';
import { metaQueryOptions } from '../../api/meta';
import styles from './ranking-intro.module.css';

/**
 * The top of the ranking: what it is, where its data comes from (the sample service or
 * the real one) and what its figures cover.
 */
export function RankingIntro({ assumedEth }: { assumedEth: boolean }) {
  const meta = useQuery(metaQueryOptions());
  return (
    <header className={styles.intro}>
      <h1 id="contracts-title">NFT activity on Starknet</h1>
      <p className={styles.lead}>
        Collections ranked by what happened to their tokens: events, sales and volume over a window
        of time; holders and last activity now.
      </p>
      <p className="muted small">
        {meta.data?.source === 'sample' ? (
          <>
            <strong className={styles.sample}>Sample data</strong> ({meta.data.description}): not
            real activity.{' '}
          </>
        ) : meta.data?.source === 'real' ? (
          <>From the records of {meta.data.description}. </>
        ) : null}
        Figures cover what this dashboard has indexed: a collection not indexed yet says so, one
        still being read says how far back it is read.
        {assumedEth && ' ETH volume counts the sales that named no currency (ETH*, assumed).'}
      </p>
    </header>
  );
}
