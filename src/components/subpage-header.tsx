import { Link } from 'react-router';
import { hrefs } from '../lib/routes';
import styles from './subpage-header.module.css';

/** The id of a subpage's title, for its section's `aria-labelledby`. */
export function subpageTitleId(page: string): string {
  return `${page.toLowerCase()}-title`;
}

/**
 * The head of a page about one side of a collection (its holders, its market): where it
 * is (Contracts › the collection › this page), its title ("Holders of …"), and the way
 * back to the collection's events.
 */
export function SubpageHeader({
  address,
  name,
  page,
}: {
  address: string;
  /** The collection's name as the page shows it. */
  name: string;
  /** This page's name in the breadcrumb and its title. */
  page: string;
}) {
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
        <Link to={hrefs.contracts()}>Contracts</Link> ›{' '}
        <Link to={hrefs.contractEvents(address)}>{name}</Link> › {page}
      </nav>
      <h1 id={subpageTitleId(page)} className={styles.title}>
        {page} of {name}
      </h1>
      <p className={styles.back}>
        <Link to={hrefs.contractEvents(address)}>‹ Back to the collection’s events</Link>
      </p>
    </header>
  );
}
