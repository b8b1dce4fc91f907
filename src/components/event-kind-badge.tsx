import type { TokenEvent } from '../api/types';

const NAMES = { mint: 'Mint', transfer: 'Transfer', sale: 'Sale', burn: 'Burn' } as const;

/** Mint, Transfer, Sale, Burn, or the upstream's own label for kinds we do not know. */
export function EventKindBadge({ event }: { event: Pick<TokenEvent, 'kind' | 'label'> }) {
  const text = event.kind === 'other' ? event.label : NAMES[event.kind];
  return <span className={`badge badge-${event.kind}`}>{text}</span>;
}
