import { hrefs } from './routes';

/**
 * The frame another site puts a collection's embedded page in: the same code whether the
 * site asked oEmbed (src/server/api/oembed.ts) or a reader copied it from the collection's
 * page, so both show the same thing.
 */
export type EmbeddedView = 'activity' | 'latest';
export type EmbedTheme = 'light' | 'dark';

// The frame's size when the site sets no bound: the chart's natural shape, ten rows.
export const EMBED_SIZES: Record<EmbeddedView, { width: number; height: number }> = {
  activity: { width: 640, height: 360 },
  latest: { width: 420, height: 460 },
};

const WHAT: Record<EmbeddedView, string> = { activity: 'activity', latest: 'latest events' };

export const embedTitle = (name: string, view: EmbeddedView) => `${name}: ${WHAT[view]}`;

/** An attribute's value: a collection's name may hold any character. */
const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface EmbedFrame {
  src: string;
  width: number;
  height: number;
  title: string;
  html: string;
}

/** The iframe of a collection's embedded page, within the bounds a site sets. */
export function embedFrame(options: {
  origin: string;
  address: string;
  view: EmbeddedView;
  name: string;
  theme?: EmbedTheme | null | undefined;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
}): EmbedFrame {
  const { origin, address, view, name, theme } = options;
  const size = EMBED_SIZES[view];
  const width = Math.min(size.width, options.maxWidth ?? Infinity);
  const height = Math.min(size.height, options.maxHeight ?? Infinity);
  const search = theme ? `?theme=${theme}` : '';
  const path =
    view === 'activity' ? hrefs.embedActivity(address, search) : hrefs.embedLatest(address, search);
  const src = `${origin}${path}`;
  const title = embedTitle(name, view);
  const html = `<iframe src="${attribute(src)}" width="${width}" height="${height}" title="${attribute(`${title} · Token activity`)}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
  return { src, width, height, title, html };
}
