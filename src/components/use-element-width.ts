import { useCallback, useLayoutEffect, useState } from 'react';

/**
 * The width of an element's content box in pixels, followed as it changes; 0 until it is
 * measured, and where nothing is laid out (jsdom). Read before the first paint, so a
 * layout chosen by width never shows the wrong one first. The ref is a callback, so an
 * element that appears later (after data arrives) is measured too.
 */
export function useElementWidth(): [(element: HTMLElement | null) => void, number] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const read = () => setWidth(element.clientWidth);
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  const ref = useCallback((next: HTMLElement | null) => setElement(next), []);
  return [ref, width];
}

/** Pixels per rem: column widths are set in rem, so they follow the reader's font size. */
export function remPixels(): number {
  if (typeof document === 'undefined') return 16;
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}
