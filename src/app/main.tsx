// First, so that every component's CSS module comes after the global styles.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { indexedDbPersister, keepLists } from './persistence';
import { createQueryClient } from './query-client';
import { createRouter } from './router';

async function start(root: HTMLElement) {
  const queryClient = createQueryClient();
  // The lists loaded before a reload are back before the first render, so the page shows
  // the same rows at once and the router can give the scroll position back.
  await keepLists(queryClient, indexedDbPersister());
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} router={createRouter()} />
    </StrictMode>,
  );
}

const root = document.getElementById('root');
if (root) void start(root);
