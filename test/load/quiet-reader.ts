/**
 * The quiet client of `quiet-client.ts`, in a process of its own: it says `ready`; asked
 * over IPC for a path, it reads it from its own address every `everyMs` for `seconds`,
 * and answers `done` with the latencies (sorted) and the answers' statuses.
 */
import { agentFrom, get } from './http-get';

interface Ask {
  port: number;
  path: string;
  address: string;
  everyMs: number;
  seconds: number;
}

process.once('message', (ask: Ask) => {
  void read(ask).then((answer) => process.send!({ type: 'done', ...answer }));
});
process.send!({ type: 'ready' });

async function read({ port, path, address, everyMs, seconds }: Ask) {
  const agent = agentFrom(address);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const stopAt = performance.now() + seconds * 1000;
  while (performance.now() < stopAt) {
    const began = performance.now();
    const answer = await get(agent, port, path);
    const took = performance.now() - began;
    latencies.push(took);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    await new Promise((done) => setTimeout(done, Math.max(0, everyMs - took)));
  }
  agent.destroy();
  return { latencies: latencies.sort((a, b) => a - b), statuses };
}
