import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The width of an element's content box in pixels, followed as it changes; 0 until it is
 * measured, and where nothing is laid out (jsdom). Read before the first paint, so a
 * layout chosen by width never shows the wrong one first.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const read = () => setWidth(element.clientWidth);
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Pixels per rem: column widths are set in rem, so they follow the reader's font size. */
export function remPixels(): number {
  if (typeof document === 'undefined') return 16;
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}
