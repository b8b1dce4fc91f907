import type { ComponentType } from 'react';
import { createBrowserRouter, Link, Navigate, type RouteObject } from 'react-router';
import { SkeletonRows } from '../components/states';
import { useTitle } from '../components/use-title';
import { pageModules, repairPercentEncoding, routePatterns } from '../lib/routes';
import { Layout } from './layout';
import { loadPage } from './load-page';
import { PageError } from './page-error';
import notice from '../components/notice.module.css';

function NotFound() {
  useTitle('Page not found');
  return (
    <section className={notice.notice} role="alert">
      <h1>Page not found</h1>
      <p>
        <Link to="/contracts">Go to the contract list</Link>
      </p>
    </section>
  );
}

/** While the first page's code loads: the layout is there, the page's place holds rows to come. */
function PageLoading() {
  return <SkeletonRows columns={5} />;
}

// Every page module, each loaded on demand as a chunk of its own.
const pageLoaders = import.meta.glob<Record<string, ComponentType>>('../pages/*/*-page.tsx');

/**
 * A route whose page's code loads when it is first opened: the module `pageModules` names
 * for it, and the component it exports as `component`.
 */
function lazyPage(name: keyof typeof pageModules, component: string): RouteObject {
  const load = pageLoaders[`../pages/${pageModules[name]}.tsx`];
  if (!load) throw new Error(`No page module for the route ${name}`);
  return {
    path: routePatterns[name],
    lazy: async () => {
      const Component = (await loadPage(load))[component];
      if (!Component) throw new Error(`The page module of ${name} exports no ${component}`);
      return { Component };
    },
  };
}

export const routes: RouteObject[] = [
  // Pages made for another site's iframe: no header, lookup or footer around them.
  {
    HydrateFallback: PageLoading,
    ErrorBoundary: PageError,
    children: [
      lazyPage('embedActivity', 'EmbedActivityRoute'),
      lazyPage('embedLatest', 'EmbedLatestRoute'),
    ],
  },
  {
    element: <Layout />,
    // Only when the layout itself fails; a page's failure shows inside it (below).
    ErrorBoundary: PageError,
    children: [
      {
        // Pages load on demand. The first render waits for the page's code (routerReady,
        // up to 3 s); this holds the page's place only if it takes longer than that.
        HydrateFallback: PageLoading,
        ErrorBoundary: PageError,
        children: [
          { path: routePatterns.home, element: <Navigate replace to="/contracts" /> },
          lazyPage('contracts', 'ContractsPage'),
          lazyPage('contractEvents', 'ContractEventsRoute'),
          lazyPage('tokenHistory', 'TokenHistoryRoute'),
          lazyPage('holders', 'HoldersRoute'),
          lazyPage('market', 'MarketRoute'),
          lazyPage('wallet', 'WalletRoute'),
          lazyPage('transaction', 'TransactionRoute'),
          lazyPage('apiDocs', 'ApiDocsPage'),
          lazyPage('webhooks', 'WebhooksRoute'),
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  // A malformed escape in the address bar is repaired before the router reads it.
  const { pathname, search, hash } = window.location;
  const repaired = repairPercentEncoding(pathname);
  if (repaired !== pathname) window.history.replaceState(null, '', repaired + search + hash);
  return createBrowserRouter(routes);
}

type Router = ReturnType<typeof createRouter>;

/**
 * Resolves once the router has the first page's code (its lazy route loaded), or after
 * `waitMs` whatever happens: a slow network never holds the first paint back for long.
 */
export function routerReady(router: Router, waitMs = 3000): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const timer = setTimeout(done, waitMs);
    const unsubscribe = router.subscribe((state) => {
      if (state.initialized) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}
