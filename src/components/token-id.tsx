import type { MouseEvent } from 'react';
import { hrefs } from '../lib/routes';
import { isPlainClick } from './plain-click';
import styles from './token-id.module.css';

interface TokenIdLinkProps {
  contract: string;
  tokenId: string;
  /**
   * Opens the token's history inside the app (the router's navigate). Without it the link
   * is followed by the browser.
   */
  onOpen?: () => void;
}

/**
 * A token id linking to its history; ids longer than ten digits are shortened to their
 * ends ("1234…6789", as addresses are), the full id in `title` and on the token's page. A plain `<a>` rather than the router's `Link`: a table renders one per row,
 * and `Link` resolves its path and sets up prefetching through a dozen hooks on every
 * row that scrolls in. The caller's `onOpen` does what `Link` would on a plain click.
 */
export function TokenIdLink({ contract, tokenId, onOpen }: TokenIdLinkProps) {
  const text = tokenId.length > 10 ? `${tokenId.slice(0, 4)}…${tokenId.slice(-4)}` : tokenId;
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onOpen || !isPlainClick(event)) return;
    event.preventDefault();
    onOpen();
  };
  return (
    <a
      className={`${styles.link} mono`}
      href={hrefs.tokenHistory(contract, tokenId)}
      title={`Token ${tokenId}`}
      onClick={follow}
    >
      {text}
    </a>
  );
}
