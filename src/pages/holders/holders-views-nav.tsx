import { Link, useSearchParams } from 'react-router';
import type { HoldersView } from '../../lib/holders-view';
import { hrefs } from '../../lib/routes';
import { searchText, updateSearch } from '../../lib/view-state';
import styles from './holders-page.module.css';

const VIEWS: readonly (readonly [HoldersView, string])[] = [
  ['holders', 'Holders'],
  ['also-hold', 'Also hold'],
  ['overlap', 'Overlap'],
  ['compare', 'Two days compared'],
];

/**
 * The holders page's views as links (each its own URL, so each can be shared): the one
 * shown marked current. A link keeps the day and the time display, and leaves out what
 * only the view left behind reads.
 */
export function HoldersViewsNav({ address, view }: { address: string; view: HoldersView }) {
  const [params] = useSearchParams();
  return (
    <nav aria-label="Holders views" className={styles.views}>
      {VIEWS.map(([id, label]) => {
        const search = updateSearch(params, {
          view: id === 'holders' ? null : id,
          ...(id !== view && { with: null, compare: null }),
        });
        return (
          <Link
            key={id}
            to={hrefs.holders(address, searchText(search))}
            aria-current={id === view ? 'page' : undefined}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
