import { fail, ok, type Parsed } from './result';

/**
 * Links to a Starknet block explorer. Voyager and Starkscan both name a transaction
 * `/tx/<hash>` and any address, account or contract, `/contract/<address>`, so one base
 * URL (a setting) is all an explorer needs.
 */
export const DEFAULT_EXPLORER_URL = 'https://voyager.online';

export type ExplorerPage = 'tx' | 'contract';

export function explorerHref(base: string, page: ExplorerPage, value: string): string {
  return `${base}/${page}/${value}`;
}

/**
 * The explorer's name as people know it: its host without `www.`. Every table row asks
 * (its transaction's tooltip), so the last answer is kept rather than a URL parsed per row.
 */
let lastName = { base: '', name: '' };
export function explorerName(base: string): string {
  if (lastName.base === base) return lastName.name;
  let name = base;
  try {
    name = new URL(base).hostname.replace(/^www\./, '');
  } catch {
    // Not a URL: its text is the best name there is.
  }
  lastName = { base, name };
  return name;
}

/** An explorer's base URL from a person's input: https only, no query, no trailing slash. */
export function parseExplorerUrl(input: string): Parsed<string> {
  const message = 'The explorer must be an https:// address, e.g. https://voyager.online';
  try {
    const url = new URL(input.trim());
    if (url.protocol !== 'https:' || url.hostname === '' || url.username || url.password) {
      return fail(message);
    }
    return ok(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
  } catch {
    return fail(message);
  }
}
