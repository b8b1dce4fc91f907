import { parseAddress } from './address';
import { addressMatcher, isPartialAddress } from './address-match';
import type { Contract } from './contract';
import { fail, ok, type Parsed } from './result';
import { parseTokenId, tokenIdToDecimal } from './token-id';

export interface LookupTarget {
  address: string;
  tokenId?: string;
}

/**
 * A contract address, an address and a token id (separated by a space, `/`, `:` or `#`),
 * or a link to one of our pages: the forms that name a contract by themselves.
 */
export function parseLookup(input: string): Parsed<LookupTarget> {
  const text = input.trim();
  if (text === '') return fail(EMPTY);
  const link = /\/contracts\/([^/?#\s]+)(?:\/tokens\/([^/?#\s]+))?/.exec(text);
  const parts = link
    ? [link[1] ?? '', link[2]].filter((part): part is string => part !== undefined)
    : text.split(/[\s/:#]+/).filter(Boolean);
  if (parts.length > 2) return fail('Use an address, or an address and a token id.');
  const address = parseAddress(parts[0] ?? '');
  if (!address.ok) return fail(address.error);
  if (parts.length === 1) return ok({ address: address.value });
  const tokenId = parseToken(parts[1] ?? '');
  if (!tokenId.ok) return fail(tokenId.error);
  return ok({ address: address.value, tokenId: tokenId.value });
}

const EMPTY =
  'Paste a contract address, optionally followed by a token id, a wallet address, a link to one of these pages, or a collection’s name.';

function parseToken(text: string): Parsed<string> {
  const parsed = parseTokenId(text);
  return parsed.ok ? ok(tokenIdToDecimal(parsed.value)) : parsed;
}

/** The contracts the lookup knows: those of the contract list loaded so far. */
export interface KnownContracts {
  contracts: readonly Contract[];
  /** The whole list is loaded: an address not in it is no contract the service lists. */
  complete: boolean;
}

export type LookupResult =
  | ({ kind: 'go' } & LookupTarget)
  /** Several contracts fit a short form or a name: the reader picks one. */
  | { kind: 'choose'; matches: Contract[]; tokenId?: string }
  /**
   * A whole address that is none of the contracts listed: a wallet (its page shows what
   * the event index holds of it), a transaction, or a contract past the loaded part of
   * the list. The reader says which (see `notListedText`).
   */
  | ({ kind: 'not-listed' } & LookupTarget)
  /** A link to a wallet's page. */
  | { kind: 'wallet'; address: string }
  | { kind: 'error'; message: string };

const MAX_CHOICES = 8;

/**
 * What a person means by the text in the lookup box, with the contract list to recognise
 * the app's short form ("0x6058…44b8"), a collection's name or symbol ("StarkVerse
 * Gallery", "SVG", with a token id after it or not), and to tell a contract's address
 * from a wallet's or a transaction's.
 */
export function resolveLookup(input: string, known: KnownContracts): LookupResult {
  const text = input.trim();
  if (text === '') return { kind: 'error', message: EMPTY };
  const { contracts } = known;
  // A link to a wallet's page names the wallet.
  const walletLink = /\/addresses\/([^/?#\s]+)/.exec(text);
  if (walletLink) {
    const wallet = parseAddress(walletLink[1] ?? '');
    return wallet.ok
      ? { kind: 'wallet', address: wallet.value }
      : { kind: 'error', message: wallet.error };
  }
  // A link to one of our pages names its contract exactly.
  if (/\/contracts\//.test(text)) {
    const parsed = parseLookup(text);
    return parsed.ok ? { kind: 'go', ...parsed.value } : { kind: 'error', message: parsed.error };
  }
  // A name may hold spaces: first the whole text, then all but a token id at its end.
  const byName = matchName(text, contracts);
  if (byName.length > 0) return pick(byName);
  const tail = /^(.+?)[\s/:#]+(\S+)$/.exec(text);
  const head = tail?.[1] ?? text;
  const token = tail ? parseToken(tail[2] ?? '') : null;
  if (token && !token.ok && !/^0x/i.test(head)) return pickByName(text, contracts, known);
  if (token && !token.ok) return { kind: 'error', message: token.error };
  const tokenId = token?.ok ? token.value : undefined;

  if (!/^0x/i.test(head)) {
    const named = matchName(head, contracts);
    return named.length > 0 ? pick(named, tokenId) : pickByName(text, contracts, known);
  }
  const matcher = addressMatcher(head);
  const whole = parseAddress(head);
  if (!matcher) return { kind: 'error', message: whole.ok ? EMPTY : whole.error };
  if (whole.ok && contracts.some((contract) => contract.address === whole.value)) {
    return { kind: 'go', address: whole.value, tokenId };
  }
  if (isPartialAddress(head)) {
    const matches = contracts.filter((contract) => matcher(contract.address));
    if (matches.length > 0) return pick(matches, tokenId);
    if (!whole.ok || contracts.length > 0) {
      return {
        kind: 'error',
        message: `No ${known.complete ? '' : 'loaded '}contract matches ${head}: paste its whole address.`,
      };
    }
  }
  if (!whole.ok) return { kind: 'error', message: whole.error };
  // Nothing to compare with (the list did not load): go, the contract's page will tell.
  if (contracts.length === 0) return { kind: 'go', address: whole.value, tokenId };
  return { kind: 'not-listed', address: whole.value, tokenId };
}

/**
 * What the lookup says of an address that is no listed contract, after the address
 * itself: what it may be, and what the choices under it open.
 */
export function notListedText(known: KnownContracts): string {
  const count = known.complete
    ? `the ${known.contracts.length} token contracts the service lists`
    : `the ${known.contracts.length} token contracts loaded so far`;
  return `is none of ${count}: it may be a wallet or a transaction. A wallet’s page shows its collections and its events from the index.`;
}

function pick(matches: Contract[], tokenId?: string): LookupResult {
  if (matches.length === 1) return { kind: 'go', address: matches[0]!.address, tokenId };
  return { kind: 'choose', matches: matches.slice(0, MAX_CHOICES), tokenId };
}

function pickByName(text: string, contracts: readonly Contract[], known: KnownContracts) {
  const loaded = known.complete ? '' : ' loaded so far';
  return {
    kind: 'error',
    message: `No collection named “${text}” among the ${contracts.length} contracts${loaded}. ${EMPTY}`,
  } satisfies LookupResult;
}

/**
 * Contracts whose name or symbol is the text (ignoring case and accents), or, when none
 * is, those whose name or symbol contains it.
 */
function matchName(text: string, contracts: readonly Contract[]): Contract[] {
  const needle = fold(text);
  if (needle.length < 2) return [];
  const fields = (contract: Contract) => [contract.name, contract.symbol].map((f) => fold(f ?? ''));
  const exact = contracts.filter((contract) => fields(contract).includes(needle));
  if (exact.length > 0) return exact;
  return contracts.filter((contract) => fields(contract).some((field) => field.includes(needle)));
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
