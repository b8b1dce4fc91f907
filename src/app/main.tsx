// First, so that every component's CSS module comes after the global styles.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { indexedDbPersister, keepLists } from './persistence';
import { createQueryClient } from './query-client';
import { createRouter, routerReady } from './router';

async function start(root: HTMLElement) {
  const queryClient = createQueryClient();
  // The router starts loading the page's code at once, while the lists loaded before a
  // reload come back from IndexedDB. Both are in before the first render, so the page
  // shows the same rows at once, as tall as they were, and the router's scroll
  // restoration (which runs on that render) can give the position back.
  const router = createRouter();
  await Promise.all([keepLists(queryClient, indexedDbPersister()), routerReady(router)]);
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
}

const root = document.getElementById('root');
if (root) void start(root);
