import { kindName, type TokenEvent } from '../lib/token-event';
import { Badge } from './badge';

/** Mint, Transfer, Sale, Burn, or the upstream's own label for kinds we do not know. */
export function EventKindBadge({ event }: { event: Pick<TokenEvent, 'kind' | 'label'> }) {
  return <Badge tone={event.kind}>{kindName(event)}</Badge>;
}
