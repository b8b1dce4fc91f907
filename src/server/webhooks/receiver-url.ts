/**
 * A receiver's URL as webhooks take it: `http://` or `https://`, no credentials, no
 * fragment; the URL, or why not. Its host's addresses are checked apart, at creation and
 * at each delivery (`pinnedAddress` in ../network-address.ts).
 */
export function checkedReceiverUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an http:// or https:// URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `url must be an http:// or https:// URL, not ${url.protocol}.`;
  }
  if (url.username !== '' || url.password !== '') return 'url must not hold credentials.';
  if (url.hash !== '') return 'url must not have a fragment (#…).';
  return url;
}
