import { parseAddress } from './address';
import { fail, ok, type Parsed } from './result';
import { parseTokenId, tokenIdToDecimal } from './token-id';

export interface LookupTarget {
  address: string;
  tokenId?: string;
}

/**
 * What a person pastes into the lookup box: a contract address, an address and a token
 * id (separated by a space, `/`, `:` or `#`), or a link to one of our pages.
 */
export function parseLookup(input: string): Parsed<LookupTarget> {
  const text = input.trim();
  if (text === '') return fail('Paste a contract address, optionally followed by a token id.');
  const link = /\/contracts\/([^/?#\s]+)(?:\/tokens\/([^/?#\s]+))?/.exec(text);
  const parts = link
    ? [link[1] ?? '', link[2]].filter((part): part is string => part !== undefined)
    : text.split(/[\s/:#]+/).filter(Boolean);
  if (parts.length > 2) return fail('Use an address, or an address and a token id.');
  const address = parseAddress(parts[0] ?? '');
  if (!address.ok) return fail(address.error);
  if (parts.length === 1) return ok({ address: address.value });
  const tokenId = parseTokenId(parts[1] ?? '');
  if (!tokenId.ok) return fail(tokenId.error);
  return ok({ address: address.value, tokenId: tokenIdToDecimal(tokenId.value) });
}
