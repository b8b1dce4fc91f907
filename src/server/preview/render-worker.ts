import { parentPort } from 'node:worker_threads';
import type { PreviewLayout } from './layout';
import { FALLBACK_LAYOUT, renderPng } from './render-png';

/**
 * The thread that draws cards (see card-renderer.ts): one layout in, its PNG out, so
 * that laying out text and resvg's rendering never hold up the server's requests. It
 * starts by drawing the plain card, sent with its `ready`.
 */
export interface RenderJob {
  id: number;
  layout: PreviewLayout;
}
export type RenderReply =
  | { ready: true; fallback: Uint8Array<ArrayBuffer> }
  | { id: number; png: Uint8Array<ArrayBuffer> }
  | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', ({ id, layout }: RenderJob) => {
    let reply: RenderReply;
    try {
      reply = { id, png: renderPng(layout) };
    } catch (error) {
      reply = { id, error: (error as Error).message };
    }
    port.postMessage(reply, 'png' in reply ? [reply.png.buffer] : []);
  });
  const fallback = renderPng(FALLBACK_LAYOUT);
  port.postMessage({ ready: true, fallback } satisfies RenderReply, [fallback.buffer]);
}
