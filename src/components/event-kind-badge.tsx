import { EVENT_KIND_NAMES, type TokenEvent } from '../lib/token-event';
import { Badge } from './badge';

/** Mint, Transfer, Sale, Burn, or the upstream's own label for kinds we do not know. */
export function EventKindBadge({ event }: { event: Pick<TokenEvent, 'kind' | 'label'> }) {
  const text = event.kind === 'other' ? event.label : EVENT_KIND_NAMES[event.kind];
  return <Badge tone={event.kind}>{text}</Badge>;
}
