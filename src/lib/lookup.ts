import { parseAddress, shortenHex } from './address';
import { addressMatcher, isPartialAddress } from './address-match';
import type { LookupMatch } from './answers';
import type { Contract } from './contract';
import { fail, ok, type Parsed } from './result';
import { hrefs } from './routes';
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
   * A whole address or hash that is none of the contracts loaded: a wallet, a
   * transaction, a contract past the loaded part of the list, a token of the page's
   * collection. The server says which it has seen (`GET /api/lookup/:value`, see
   * `matchTarget`); when it cannot be asked, the reader says (see `notListedText`).
   */
  | ({ kind: 'not-listed' } & LookupTarget)
  /** A link to a wallet's page. */
  | { kind: 'wallet'; address: string }
  | { kind: 'error'; message: string };

const MAX_CHOICES = 8;

/**
 * Links of the block explorers people paste, Voyager and Starkscan on either network
 * (`sepolia.` hosts): the page's kind and its address, and a token id after it.
 */
const EXPLORER_LINK =
  /^(?:https?:\/\/)?(?:[\w-]+\.)*(?:voyager\.online|starkscan\.co)\/([\w-]+)\/([^/?#\s]+)(?:\/([^/?#\s]+))?/i;

/** A token id alone: `#12`, `#0x0c`, or digits. */
const BARE_TOKEN_ID = /^(?:#\s*(\S+)|([0-9]+))$/;

const NUMBER = /^(?:[0-9]+|0x[0-9a-f]+)$/i;

const error = (message: string): LookupResult => ({ kind: 'error', message });

/**
 * What a person means by the text in the lookup box, with the contract list to recognise
 * the app's short form ("0x6058…44b8"), a collection's name or symbol ("StarkVerse
 * Gallery", "SVG", with a token id after it or not), and to tell a contract's address
 * from a wallet's or a transaction's. `current` is the collection of the page the box is
 * on, if any: a token id alone is one of its tokens.
 */
export function resolveLookup(
  input: string,
  known: KnownContracts,
  current?: string,
): LookupResult {
  const text = input.trim();
  if (text === '') return error(EMPTY);
  const { contracts } = known;
  const explorer = EXPLORER_LINK.exec(text);
  if (explorer) return resolveExplorerLink(explorer, known);
  // A link to a wallet's page names the wallet.
  const walletLink = /\/addresses\/([^/?#\s]+)/.exec(text);
  if (walletLink) {
    const wallet = parseAddress(walletLink[1] ?? '');
    return wallet.ok ? { kind: 'wallet', address: wallet.value } : error(wallet.error);
  }
  // A link to one of our pages names its contract exactly.
  if (/\/contracts\//.test(text)) return goTo(text);
  const bare = BARE_TOKEN_ID.exec(text);
  const bareToken = bare && parseToken(bare[1] ?? bare[2] ?? '');
  if (bareToken && current) {
    return bareToken.ok
      ? { kind: 'go', address: current, tokenId: bareToken.value }
      : error(bareToken.error);
  }
  // A name may hold spaces: first the whole text, then all but a token id at its end.
  const byName = matchName(text, contracts);
  if (byName.length > 0) return pick(byName);
  if (bareToken) return error(bareToken.ok ? NO_COLLECTION : bareToken.error);
  const tail = /^(.+?)[\s/:#]+(\S+)$/.exec(text);
  const head = tail?.[1] ?? text;
  const token = tail ? parseToken(tail[2] ?? '') : null;
  if (token && !token.ok) {
    // A number after an address or a collection's name was meant as its token id.
    const meantAsId =
      /^0x/i.test(head) || (NUMBER.test(tail?.[2] ?? '') && matchName(head, contracts).length > 0);
    return meantAsId ? error(token.error) : pickByName(text, contracts, known);
  }
  const tokenId = token?.ok ? token.value : undefined;

  if (!/^0x/i.test(head)) {
    const named = matchName(head, contracts);
    return named.length > 0 ? pick(named, tokenId) : pickByName(text, contracts, known);
  }
  const matcher = addressMatcher(head);
  const whole = parseAddress(head);
  if (!matcher) return error(whole.ok ? EMPTY : whole.error);
  if (whole.ok && contracts.some((contract) => contract.address === whole.value)) {
    return { kind: 'go', address: whole.value, tokenId };
  }
  if (isPartialAddress(head)) {
    const matches = contracts.filter((contract) => matcher(contract.address));
    if (matches.length > 0) return pick(matches, tokenId);
    if (!whole.ok || contracts.length > 0) {
      return error(
        `No ${known.complete ? '' : 'loaded '}contract matches ${head}: paste its whole address.`,
      );
    }
  }
  if (!whole.ok) return error(whole.error);
  // Nothing to compare with (the list did not load): go, the contract's page will tell.
  if (contracts.length === 0) return { kind: 'go', address: whole.value, tokenId };
  return { kind: 'not-listed', address: whole.value, tokenId };
}

const NO_COLLECTION =
  'A token id alone needs its collection: open the collection first, or type its address or name before the id.';

/** A parsed address, with a token id or not, as a place to go. */
function goTo(text: string): LookupResult {
  const parsed = parseLookup(text);
  return parsed.ok ? { kind: 'go', ...parsed.value } : error(parsed.error);
}

/**
 * An explorer's page: a collection or one of its tokens opens here; its `/contract/` page
 * may be a wallet's too, so its address is looked up as if pasted; a transaction is
 * looked up too (the server says whether the index has seen it).
 */
function resolveExplorerLink(link: RegExpExecArray, known: KnownContracts): LookupResult {
  const [, page = '', address = '', tokenId] = link;
  switch (page.toLowerCase()) {
    case 'contract':
      return resolveLookup(address, known);
    case 'nft-contract':
      return goTo(address);
    case 'nft':
      return goTo(tokenId ? `${address} ${tokenId}` : address);
    case 'tx': {
      const hash = parseAddress(address);
      return hash.ok ? { kind: 'not-listed', address: hash.value } : error(hash.error);
    }
    default:
      return error(
        `The dashboard opens an explorer’s contract, collection and token links, not its /${page}/ pages.`,
      );
  }
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

/** Where one of the server's lookup matches goes, and what the choice says. */
export function matchTarget(match: LookupMatch): { href: string; label: string } {
  switch (match.kind) {
    case 'collection':
      return {
        href: hrefs.contractEvents(match.address),
        label: `The collection ${match.name ?? shortenHex(match.address)}`,
      };
    case 'wallet':
      return { href: hrefs.wallet(match.address), label: 'A wallet the index has seen' };
    case 'transaction':
      return { href: hrefs.transaction(match.hash), label: 'A transaction the index has seen' };
    case 'token':
      return {
        href: hrefs.tokenHistory(match.collection, match.tokenId),
        label: `Token ${match.tokenId} of this collection`,
      };
  }
}

/** What the lookup says of a whole value the index has not seen as anything. */
export function notKnownText(value: string, current: string | undefined): string {
  const token = current ? ', no token of this collection' : '';
  return `${shortenHex(value)} is not known: no collection the service lists, no wallet or transaction the index has seen${token}. The index knows only collections read so far.`;
}
