import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  bytes: number;
  body: Buffer;
}

export function get(agent: Agent, port: number, path: string): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes < 1_000_000) chunks.push(chunk);
      });
      res.on('end', () =>
        resolvePromise({ status: res.statusCode ?? 0, bytes, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end();
  });
}

export const agentFrom = (localAddress: string, sockets = 1) =>
  new Agent({ keepAlive: true, maxSockets: sockets, localAddress });
