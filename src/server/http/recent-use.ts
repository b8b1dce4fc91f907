const DEFAULT_MAX_CLIENTS = 10_000;

/**
 * How much of the server's time each client used lately: every charge added, the sum
 * halving every `halfLifeMs`. A freed turn goes to the client that used least (see
 * fair-lane.ts), so a client asking a page now and then is served ahead of sixteen that
 * ask back to back, though each of those has only one request waiting too. Bounded:
 * past `maxClients` the longest unseen is forgotten (it would count as having used
 * nothing, which a client that unseen for long nearly has).
 */
export function createRecentUse(halfLifeMs: number, maxClients = DEFAULT_MAX_CLIENTS) {
  const used = new Map<string, { ms: number; at: number }>();
  const decayed = (entry: { ms: number; at: number } | undefined, now: number) =>
    entry ? entry.ms * 0.5 ** ((now - entry.at) / halfLifeMs) : 0;
  return {
    of: (client: string, now: number) => decayed(used.get(client), now),
    charge(client: string, ms: number, now: number) {
      const before = decayed(used.get(client), now);
      used.delete(client);
      used.set(client, { ms: before + ms, at: now });
      if (used.size > maxClients) used.delete(used.keys().next().value!);
    },
  };
}
