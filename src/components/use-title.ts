import { useEffect } from 'react';

/** The window's title while the page is shown: each page names what it shows. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
