import { createBrowserRouter, Link, Navigate, type RouteObject } from 'react-router';
import { ContractEventsRoute } from '../pages/contract-events/contract-events-page';
import { ContractsPage } from '../pages/contracts/contracts-page';
import { TokenHistoryRoute } from '../pages/token-history/token-history-page';
import { routePatterns } from '../lib/routes';
import { Layout } from './layout';

function NotFound() {
  return (
    <section className="notice" role="alert">
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
      { path: routePatterns.contracts, element: <ContractsPage /> },
      { path: routePatterns.contractEvents, element: <ContractEventsRoute /> },
      { path: routePatterns.tokenHistory, element: <TokenHistoryRoute /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
