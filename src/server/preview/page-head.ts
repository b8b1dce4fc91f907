import { escapeMarkup } from './escape-markup';
import { HEIGHT, WIDTH } from './image-svg';
import { describeLayout, type PreviewLayout } from './layout';

export const SITE_NAME = 'Token activity';

/**
 * The `<head>` lines that make a pasted link a card (Open Graph, and Twitter's, which
 * most chats read too): title, description, the preview image and the page's URL, all
 * absolute, every value escaped.
 */
export function headTags(layout: PreviewLayout, pageUrl: string, imageUrl: string): string {
  const title = layout.title;
  const description = describeLayout(layout);
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeMarkup(content)}" />`;
  return [
    `<title>${escapeMarkup(`${title} · ${SITE_NAME}`)}</title>`,
    meta('name', 'description', description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', pageUrl),
    meta('property', 'og:image', imageUrl),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(WIDTH)),
    meta('property', 'og:image:height', String(HEIGHT)),
    meta('property', 'og:image:alt', `${title}: ${description}`),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', imageUrl),
  ].join('\n    ');
}

/**
 * The app's HTML shell with `tags` in place of its own title and description (a page
 * has one of each); anything else in it is left as built.
 */
export function withHeadTags(shell: string, tags: string): string {
  const plain = shell
    .replace(/<title>[^<]*<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  return withAddedTags(plain, tags);
}

/** The shell with `tags` added at the end of its `<head>`. */
export function withAddedTags(shell: string, tags: string): string {
  // A function, not a string: `$&` or `$'` in a collection's name must stay text.
  return shell.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
}
