import { errorResponse, type ApiErrorInfo } from '../proxy/error-response';

/** How many downloads may run at once: per client, and in all. */
export interface DownloadLimits {
  perClient: number;
  max: number;
}

// Each running download holds one batch of rows and a database page at a time, and costs
// the server's time for as long as it is read: a few at once per visitor is enough for
// the dashboard's buttons, and the total bounds what slow readers can hold.
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { perClient: 2, max: 8 };

// A download lasts seconds to minutes: asking again sooner is wasted.
const RETRY_AFTER_SECONDS = 10;

export interface DownloadRequest {
  /** Who asks: their downloads are counted together. */
  client: string;
  request: Request;
}

export interface DownloadFile {
  name: string;
  type: string;
  /** The file's text, a batch at a time; asked for its next batch only once the last is sent. */
  text: () => AsyncGenerator<string>;
}

/**
 * Files streamed to the browser as they are written, at the pace the client reads: the
 * next batch (and its database page) is made only when the socket has taken the last one,
 * so a client that stops reading holds one batch, not the file. A client that goes away
 * ends its download's writing at the next batch. A failure part way ends the download
 * with an error, so a cut file is never taken for a whole one. Downloads past the limits
 * are refused before anything is read: 429 for the client's own, 503 for the server's.
 */
export function createDownloads(limits: DownloadLimits) {
  const perClient = new Map<string, number>();
  let running = 0;

  function refusal(client: string): ApiErrorInfo | undefined {
    if ((perClient.get(client) ?? 0) >= limits.perClient) {
      return {
        kind: 'client_rate_limited',
        status: 429,
        message: `This dashboard sends each address ${limits.perClient} downloads at a time, and yours has that many under way. Try again once one has finished.`,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      };
    }
    if (running >= limits.max) {
      return {
        kind: 'busy',
        status: 503,
        message: 'The server is sending as many downloads as it can at once. Try again shortly.',
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      };
    }
    return undefined;
  }

  /** A place for `client`'s download, given back once (when its file ends either way). */
  function take(client: string) {
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    running += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      running -= 1;
      const left = (perClient.get(client) ?? 1) - 1;
      if (left === 0) perClient.delete(client);
      else perClient.set(client, left);
    };
  }

  function respond({ client, request }: DownloadRequest, file: DownloadFile): Response {
    const headers = {
      'content-type': `${file.type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${file.name}"`,
      'cache-control': 'no-store',
    };
    // Nothing is written for a HEAD request or one whose client has already gone.
    if (request.method === 'HEAD' || request.signal.aborted) {
      return new Response(null, { headers });
    }
    const refused = refusal(client);
    if (refused) return errorResponse(refused);
    const release = take(client);
    const batches = file.text();
    // Ends the writer where it waits (a batch sent, or the page it reads: no more pages),
    // and gives its place back once it has ended.
    const end = () => void batches.return(undefined).then(release, release);
    request.signal.addEventListener('abort', end, { once: true });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const next = await batches.next();
            if (next.done) {
              end();
              controller.close();
            } else {
              controller.enqueue(encoder.encode(next.value));
            }
          } catch (error) {
            end();
            controller.error(error);
          }
        },
        cancel: end,
      },
      // Nothing is made ahead of what the client reads.
      { highWaterMark: 0 },
    );
    return new Response(body, { headers });
  }

  return {
    respond,
    /** Downloads being sent now. */
    running: () => running,
  };
}

export type Downloads = ReturnType<typeof createDownloads>;
