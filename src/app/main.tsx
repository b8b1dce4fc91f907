// First, so that every component's CSS module comes after the global styles.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createQueryClient } from './query-client';
import { createRouter, routerReady } from './router';

async function start(root: HTMLElement) {
  const queryClient = createQueryClient();
  // The router starts loading the page's code at once; the first render waits for it
  // (for a moment at most), so the page appears whole rather than as a placeholder.
  const router = createRouter();
  await routerReady(router);
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
}

const root = document.getElementById('root');
if (root) void start(root);
