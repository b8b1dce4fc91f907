import { act, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app/app';
import { Layout } from '../../src/app/layout';
import { loadPage } from '../../src/app/load-page';
import { PageError } from '../../src/app/page-error';
import { createQueryClient } from '../../src/app/query-client';

const RELOADED = 'page-code-reloaded';

beforeEach(() => {
  sessionStorage.clear();
  // The layout asks the server what it serves; that is not what these tests are about.
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
    Response.json({ source: 'sample', description: 'test data' }),
  );
});
afterEach(() => vi.restoreAllMocks());

describe('loading a page’s code', () => {
  it('tries a failed load once more', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('page');
    expect(await loadPage(load)).toBe('page');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('says a reload may help once per session, online, and forgets it when a load works', async () => {
    const failing = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(loadPage(failing)).rejects.toMatchObject({ name: 'PageCodeError', reload: true });
    sessionStorage.setItem(RELOADED, '1');
    await expect(loadPage(failing)).rejects.toMatchObject({ reload: false });
    await loadPage(() => Promise.resolve('page'));
    expect(sessionStorage.getItem(RELOADED)).toBeNull();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await expect(loadPage(failing)).rejects.toMatchObject({ reload: false });
  });
});

/** The app's layout with one page, `/page`, whose route is `page`. */
function renderPage(page: Omit<RouteObject, 'path' | 'children' | 'index'>) {
  const routes: RouteObject[] = [
    {
      element: <Layout />,
      children: [
        {
          HydrateFallback: () => null,
          ErrorBoundary: PageError,
          children: [{ path: '/page', ...page }],
        },
      ],
    },
  ];
  const router = createMemoryRouter(routes, { initialEntries: ['/page'] });
  render(<App queryClient={createQueryClient()} router={router} />);
}

const failedCode = () =>
  loadPage<{ Component: () => null }>(() => Promise.reject(new TypeError('Failed to fetch')));

describe('the pages’ error screen', () => {
  it('shows inside the layout when a page’s code cannot be had after the reload', async () => {
    sessionStorage.setItem(RELOADED, '1');
    renderPage({ lazy: failedCode });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).getByRole('heading')).toHaveTextContent('This page could not be loaded');
    expect(alert).toHaveTextContent('Retry loads the page again.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    // The header, and its lookup, are the app's.
    expect(screen.getByRole('banner')).toContainElement(screen.getByRole('search'));
    expect(document.title).toBe('This page could not be loaded');
  });

  it('says what a page that could not load means offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderPage({ lazy: failedCode });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(screen.getByRole('status')).toHaveTextContent(/^The connection is gone\./);
    expect(alert).toHaveTextContent('could not be fetched without a connection');
    expect(alert).toHaveTextContent('It opens by itself when the connection is back.');
  });

  it('the layout says the connection is gone while the browser is offline', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get');
    renderPage({ Component: () => <p>The page</p> });
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    onLine.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('status')).toHaveTextContent(
      'The connection is gone. What is shown stays; the dashboard carries on by itself when the connection is back.',
    );
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('The page')).toBeInTheDocument();
  });

  it('shows a page that fails while showing, never the router’s developer page', async () => {
    // React reports the error it caught; the test wants only the screen.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPage({
      Component: () => {
        throw new Error('A bug of ours.');
      },
    });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).getByRole('heading')).toHaveTextContent('This page failed');
    expect(alert).toHaveTextContent('A bug of ours.');
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
  });
});
