import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { FONT_FAMILY, previewSvg } from './image-svg';
import type { PreviewLayout } from './layout';

// The font ships in an npm package as TTF (resvg reads TTF/OTF, not WOFF): the image
// looks the same on every machine, whatever fonts the system has.
const require = createRequire(import.meta.url);
const FONT_FILES = [
  require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'),
  require.resolve('@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'),
];

/** The preview card as a PNG (see image-svg.ts for what it shows). */
export function renderPng(layout: PreviewLayout): Uint8Array<ArrayBuffer> {
  const resvg = new Resvg(previewSvg(layout), {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
  });
  return new Uint8Array(resvg.render().asPng());
}

/** What a card that could not be drawn in time shows instead: the same for every link. */
export const FALLBACK_LAYOUT: PreviewLayout = {
  title: 'Token activity',
  subtitle: 'Open the link for the figures',
  figures: [],
  seed: '0x0',
};
