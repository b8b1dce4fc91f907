/**
 * Contract images come from the upstream unchecked: `https://…`, `ipfs://…`, `""` or
 * garbage, and sometimes something hostile (`javascript:`). Only URLs that can do
 * nothing but show an image get through; everything else becomes "no image".
 */
export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/';

export function safeImageUrl(
  raw: string | undefined,
  ipfsGateway = DEFAULT_IPFS_GATEWAY,
): string | null {
  if (!raw) return null;
  const text = raw.trim();
  if (text.length === 0 || text.length > 100_000) return null;
  if (/^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/i.test(text)) return text;
  if (/^ipfs:\/\//i.test(text)) {
    const path = text.slice('ipfs://'.length).replace(/^ipfs\//i, '');
    if (!/^[A-Za-z0-9._~/-]+$/.test(path) || path.includes('..')) return null;
    return safeHttpUrl(ipfsGateway.replace(/\/*$/, '/') + path);
  }
  return safeHttpUrl(text);
}

/** http is upgraded to https: the page is served over https and its CSP allows only that. */
function safeHttpUrl(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:') url.protocol = 'https:';
    return url.protocol === 'https:' && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}
