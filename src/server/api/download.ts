/**
 * A file streamed to the browser as it is written: `write` sends text a batch at a time
 * (nothing waits for the whole file in memory); a failure part way ends the download
 * with an error, so a cut file is never taken for a whole one.
 */
export function downloadResponse(
  file: { name: string; type: string },
  write: (send: (text: string) => void) => Promise<void>,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        await write((text) => controller.enqueue(encoder.encode(text)));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return new Response(body, {
    headers: {
      'content-type': `${file.type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${file.name}"`,
      'cache-control': 'no-store',
    },
  });
}
