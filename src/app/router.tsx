import type { ComponentType } from 'react';
import { createBrowserRouter, Link, Navigate, type RouteObject } from 'react-router';
import { SkeletonRows } from '../components/states';
import { useTitle } from '../components/use-title';
import { repairPercentEncoding, routePatterns } from '../lib/routes';
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

/**
 * A route whose page's code loads when it is first opened: `load` imports the page's
 * module (a literal `import()`, so the page is a chunk of its own) and picks its component.
 */
function lazyPage(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, lazy: async () => ({ Component: await loadPage(load) }) };
}

export const routes: RouteObject[] = [
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
          lazyPage(
            routePatterns.contracts,
            async () => (await import('../pages/contracts/contracts-page')).ContractsPage,
          ),
          lazyPage(
            routePatterns.contractEvents,
            async () =>
              (await import('../pages/contract-events/contract-events-page')).ContractEventsRoute,
          ),
          lazyPage(
            routePatterns.tokenHistory,
            async () =>
              (await import('../pages/token-history/token-history-page')).TokenHistoryRoute,
          ),
          lazyPage(
            routePatterns.holders,
            async () => (await import('../pages/holders/holders-page')).HoldersRoute,
          ),
          lazyPage(
            routePatterns.market,
            async () => (await import('../pages/market/market-page')).MarketRoute,
          ),
          lazyPage(
            routePatterns.wallet,
            async () => (await import('../pages/wallet/wallet-page')).WalletRoute,
          ),
          lazyPage(
            routePatterns.transaction,
            async () => (await import('../pages/transaction/transaction-page')).TransactionRoute,
          ),
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
