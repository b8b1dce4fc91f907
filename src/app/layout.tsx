import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, ScrollRestoration } from 'react-router';
import { metaQueryOptions } from '../api/meta';
import { LookupBox } from '../components/lookup-box';
import { hrefs } from '../lib/routes';
import { KeyboardShortcuts } from './keyboard-shortcuts';
import { useOnline } from './use-online';
import { SettingsPanel } from './settings-panel';
import notice from '../components/notice.module.css';
import styles from './layout.module.css';

export function Layout() {
  const meta = useQuery(metaQueryOptions());
  const online = useOnline();
  return (
    <>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <Link to="/contracts" className={styles.brand}>
          Token activity
        </Link>
        <LookupBox />
        <SettingsPanel />
      </header>
      <KeyboardShortcuts />
      <main id="main" className={styles.main} tabIndex={-1}>
        {/* Requests wait while offline (React Query pauses them): say why nothing comes. */}
        {!online && (
          <p className={notice.wait} role="status">
            The connection is gone. What is shown stays; the dashboard carries on by itself when the
            connection is back.
          </p>
        )}
        <Outlet />
      </main>
      <footer className={styles.footer}>
        {meta.data ? (
          <span>
            Data: {meta.data.source === 'sample' ? 'sample data — ' : ''}
            {meta.data.description}
          </span>
        ) : meta.isError ? (
          <span>Data source unknown: the dashboard server did not answer.</span>
        ) : (
          <span>&nbsp;</span>
        )}{' '}
        · <Link to={hrefs.apiDocs()}>API</Link> · Press <kbd>?</kbd> for keyboard shortcuts.
      </footer>
      {/* Back, forward and reload give the scroll position back; a new page starts at the top. */}
      <ScrollRestoration />
    </>
  );
}
