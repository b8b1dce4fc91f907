import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreviewLayout } from './layout';
import type { RenderJob, RenderReply } from './render-worker';

type Png = Uint8Array<ArrayBuffer>;

export interface CardRenderer {
  /**
   * Once a drawing thread is ready: the plain card it drew, to send when a card is late;
   * null when no thread could be started.
   */
  started(): Promise<Png | null>;
  /** The layout's PNG, or null when the thread failed or spent `stuckMs` on it. */
  draw(layout: PreviewLayout): Promise<Png | null>;
  /** Stops the drawing thread; a later card starts another. */
  close(): Promise<void>;
}

// The worker is TypeScript, as the server is: its thread registers tsx (which runs the
// server under `npm start`, and the tests) before loading it. Node 20 does not hand a
// worker the `--import` of tsx's loader in time for the worker's own file.
const require = createRequire(import.meta.url);
const TSX_API = join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
const WORKER_FILE = new URL('./render-worker.ts', import.meta.url).href;
const WORKER_START = `import(${JSON.stringify(pathToFileURL(TSX_API).href)})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_FILE)}); })`;
const START_TIMEOUT_MS = 30_000;

interface Waiting {
  job: RenderJob;
  /** Past this, the card is given up: taken out of the queue, or its thread stopped. */
  dropAt: number;
  resolve: (png: Png | null) => void;
}

/**
 * Cards drawn on one worker thread, one at a time: the event loop stays free for every
 * other request while a card is drawn. The time bound a visitor sees is the caller's
 * (previews.ts sends the plain card when a card is late, and keeps the card once drawn);
 * this one only gives up on a card after `stuckMs`, stopping the thread if it is the one
 * being drawn (resvg cannot be interrupted otherwise): the next card starts a new one.
 */
export function createCardRenderer(stuckMs: number): CardRenderer {
  let worker: Worker | undefined;
  let ready: Promise<Png | null> | undefined;
  let isReady = false;
  let drawing: (Waiting & { timer: ReturnType<typeof setTimeout> }) | undefined;
  const queue: Waiting[] = [];
  let nextId = 0;

  function start(): Promise<Png | null> {
    const thread = new Worker(WORKER_START, { eval: true });
    worker = thread;
    thread.unref();
    thread.on('message', (reply: RenderReply) => {
      if (!('id' in reply) || drawing?.job.id !== reply.id) return;
      finish('png' in reply ? reply.png : null);
    });
    // A thread that fails or is stopped takes only the card it was drawing with it.
    thread.on('error', () => stop(thread));
    thread.on('exit', () => stop(thread));
    return new Promise<Png | null>((resolve) => {
      const timer = setTimeout(() => stop(thread), START_TIMEOUT_MS);
      thread.on('message', (reply: RenderReply) => {
        if (!('ready' in reply)) return;
        clearTimeout(timer);
        isReady = true;
        const now = Date.now();
        // Waiting for the thread to start is not the cards' time.
        for (const waiting of queue) waiting.dropAt = Math.max(waiting.dropAt, now + stuckMs);
        resolve(reply.fallback);
        next();
      });
      thread.once('exit', () => {
        clearTimeout(timer);
        resolve(null);
      });
    });
  }

  function stop(thread: Worker) {
    if (worker !== thread) return;
    const wasReady = isReady;
    worker = undefined;
    ready = undefined;
    isReady = false;
    void thread.terminate();
    finish(null);
    // A thread that never started draws nothing: its cards are given up. Otherwise the
    // cards still waiting get a new thread.
    if (!wasReady) for (const waiting of queue.splice(0)) waiting.resolve(null);
    else if (queue.length > 0) void started();
  }

  function finish(png: Png | null) {
    if (!drawing) return;
    clearTimeout(drawing.timer);
    drawing.resolve(png);
    drawing = undefined;
    next();
  }

  function next() {
    if (drawing || !worker || !isReady) return;
    const waiting = queue.shift();
    if (!waiting) return;
    const left = waiting.dropAt - Date.now();
    if (left <= 0) {
      waiting.resolve(null);
      return next();
    }
    const thread = worker;
    drawing = { ...waiting, timer: setTimeout(() => stop(thread), left) };
    thread.postMessage(waiting.job);
  }

  const started = () => (ready ??= start());

  return {
    started,
    draw(layout) {
      return new Promise((resolve) => {
        queue.push({ job: { id: nextId++, layout }, dropAt: Date.now() + stuckMs, resolve });
        void started();
        next();
      });
    },
    async close() {
      const thread = worker;
      if (thread) stop(thread);
      await thread?.terminate();
    },
  };
}
