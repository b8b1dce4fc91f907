import type { EmbedTheme } from '../../lib/embed';
import {
  quoteParam,
  refused,
  Reasons,
  searchReading,
  taken,
  type Reading,
} from '../../lib/param-reading';

/** The themes an embedding site may ask for; without one, the reader's own (or the system's). */
const EMBED_THEMES: readonly EmbedTheme[] = ['light', 'dark'];

export function readEmbedTheme(value: string | null): Reading<EmbedTheme | null> {
  if (!value) return taken(null);
  const theme = EMBED_THEMES.find((each) => each === value.toLowerCase());
  return theme
    ? taken(theme)
    : refused(
        null,
        `${quoteParam('theme', value)} is no theme (light or dark): the system's is used.`,
      );
}

/** An embedded page's search: its theme alone. */
export function readEmbedSearch(params: URLSearchParams) {
  const reasons = new Reasons();
  return searchReading(
    params,
    [['theme', reasons.take(readEmbedTheme(params.get('theme')))]],
    reasons,
  );
}
