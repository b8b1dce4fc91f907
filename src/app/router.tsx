import { createBrowserRouter, Link, Navigate, type RouteObject } from 'react-router';
import { routePatterns } from '../lib/routes';
import { Layout } from './layout';
import notice from '../components/notice.module.css';

function NotFound() {
  return (
    <section className={notice.notice} role="alert">
      <h1>Page not found</h1>
      <p>
        <Link to="/contracts">Go to the contract list</Link>
      </p>
    </section>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: routePatterns.home, element: <Navigate replace to="/contracts" /> },
      // Pages load on demand: the first paint needs only React, the router and the layout.
      {
        path: routePatterns.contracts,
        lazy: async () => ({
          Component: (await import('../pages/contracts/contracts-page')).ContractsPage,
        }),
      },
      {
        path: routePatterns.contractEvents,
        lazy: async () => ({
          Component: (await import('../pages/contract-events/contract-events-page'))
            .ContractEventsRoute,
        }),
      },
      {
        path: routePatterns.tokenHistory,
        lazy: async () => ({
          Component: (await import('../pages/token-history/token-history-page')).TokenHistoryRoute,
        }),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
