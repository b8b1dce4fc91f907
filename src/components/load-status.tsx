import type { ServerList } from '../api/use-server-list';
import { formatCount, plural } from '../lib/format';
import styles from './load-status.module.css';

interface LoadStatusProps {
  noun: string;
  plural?: string;
  list: ServerList<unknown>;
  /** How many rows the whole answer holds, when known (the view's count over the history). */
  total?: number | null;
  /** How the rows are ordered, in words, when it needs saying (the price sort). */
  order?: string | null;
}

/** What is on screen: rows loaded of how many, whether more follow, and the order. */
export function LoadStatus({ noun, plural: nouns, list, total, order }: LoadStatusProps) {
  const loaded = list.items.length;
  const parts = [
    !list.hasMore
      ? `${loaded === 1 ? 'the one' : `all ${formatCount(loaded)}`} ${loaded === 1 ? noun : (nouns ?? `${noun}s`)} shown`
      : total !== null && total !== undefined
        ? `${formatCount(loaded)} of ${plural(total, noun, nouns)} shown`
        : `${plural(loaded, noun, nouns)} shown · more follow`,
  ];
  if (list.isLoadingMore) parts.push('loading more…');
  if (order) parts.push(order);
  return (
    <p className={styles.status} role="status" aria-live="polite">
      {parts.join(' · ')}
    </p>
  );
}
