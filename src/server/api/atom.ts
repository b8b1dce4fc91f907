import { escapeMarkup } from '../preview/escape-markup';

/**
 * An Atom document (RFC 4287) from plain values: every text escaped, every time in RFC
 * 3339, nothing else decided here. What a feed says is `feeds.ts`'s.
 */
export interface AtomEntry {
  /** An IRI that never changes for this entry, whoever asks and however often. */
  id: string;
  title: string;
  /** The page the entry is about. */
  link: string;
  /** Unix seconds. */
  updated: number;
  summary: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  /** The feed's own URL (`rel="self"`). */
  self: string;
  /** The page it follows (`rel="alternate"`). */
  page: string;
  /** Unix seconds: the newest entry's time, or when nothing is known yet, the feed's. */
  updated: number;
  author: string;
  entries: readonly AtomEntry[];
}

/** Atom's dates: RFC 3339 in UTC, to the second. */
export const atomTime = (seconds: number) =>
  new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

// Characters XML forbids are dropped: a name the service sent with one must not make the
// whole feed unreadable.
const text = escapeMarkup;

export function atomDocument(feed: AtomFeed): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${text(feed.id)}</id>`,
    `  <title>${text(feed.title)}</title>`,
    ...(feed.subtitle ? [`  <subtitle>${text(feed.subtitle)}</subtitle>`] : []),
    `  <link rel="self" type="application/atom+xml" href="${text(feed.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${text(feed.page)}"/>`,
    `  <updated>${atomTime(feed.updated)}</updated>`,
    `  <author><name>${text(feed.author)}</name></author>`,
  ];
  for (const entry of feed.entries) {
    lines.push(
      '  <entry>',
      `    <id>${text(entry.id)}</id>`,
      `    <title>${text(entry.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${text(entry.link)}"/>`,
      `    <updated>${atomTime(entry.updated)}</updated>`,
      `    <summary>${text(entry.summary)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
