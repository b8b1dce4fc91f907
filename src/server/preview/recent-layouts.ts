import type { PreviewLayout } from './layout';

/**
 * Layouts read in the last `ttlMs`, by target, at most `maxEntries` (oldest out first): a
 * page's tags and the image a crawler then asks for, or a link pasted into a busy
 * channel, read the index once. Short, so a card is never older than a few seconds more
 * than its `Cache-Control` already allows.
 */
export function recentLayouts(ttlMs: number, maxEntries: number, now = Date.now) {
  const entries = new Map<string, { layout: PreviewLayout; at: number }>();
  return async function read(
    key: string,
    load: () => Promise<PreviewLayout>,
  ): Promise<PreviewLayout> {
    const found = entries.get(key);
    if (found && now() - found.at < ttlMs) return found.layout;
    const layout = await load();
    entries.delete(key);
    entries.set(key, { layout, at: now() });
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    return layout;
  };
}
