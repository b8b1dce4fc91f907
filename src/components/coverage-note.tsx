import type { Coverage } from '../lib/answers';
import { formatCount } from '../lib/format';
import { formatDay, formatRelative } from '../lib/time';
import styles from './coverage-note.module.css';

/**
 * How complete and fresh the page's answers are, in one line that keeps its place: while
 * the indexer reads the history, its progress (records read, back to which date); once
 * whole, "whole history" and when the newest events were last asked for; how far behind
 * the primary a replica that answered was, past the server's bound; and when the
 * service could not be asked, that the answers come from stored data, and why.
 */
export function CoverageNote({
  coverage,
  nowMs,
}: {
  coverage: Coverage | undefined;
  nowMs: number;
}) {
  if (!coverage) return <p className={styles.note}>&nbsp;</p>;
  const parts: string[] = [];
  if (coverage.complete) parts.push('Whole history indexed');
  else if (coverage.indexedBack === null) parts.push('Nothing indexed yet');
  else parts.push(`Indexed back to ${formatDay(coverage.indexedBack)}`);
  if (coverage.indexing && !coverage.complete) {
    parts.push(
      `the indexer is reading its history: ${formatCount(coverage.records)} records read so far`,
    );
  }
  if (coverage.catchingUp !== null) {
    parts.push(
      `${formatCount(coverage.catchingUp)} of ${formatCount(coverage.records)} records indexed so far`,
    );
  }
  if (coverage.headReadAt) {
    const seconds = Math.floor(Date.parse(coverage.headReadAt) / 1000);
    parts.push(`newest events asked for ${formatRelative(seconds, nowMs)}`);
  }
  if (typeof coverage.replicaLagSeconds === 'number') {
    parts.push(`read from a replica ${coverage.replicaLagSeconds} s behind the primary`);
  }
  const problem = coverage.upstream
    ? `The Token Events Service could not be asked (${coverage.upstream.failure}); these answers come from stored data.`
    : coverage.fault;
  return (
    <>
      <p className={styles.note} role="status" aria-live="polite">
        {coverage.indexing && !coverage.complete && (
          <span className={styles.spinner} aria-hidden="true" />
        )}
        {parts.join(' · ')}.
      </p>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
