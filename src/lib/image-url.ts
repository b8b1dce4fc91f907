/**
 * Contract images come from the upstream unchecked: `https://…`, `ipfs://…`, `data:…`,
 * `""` or garbage, and sometimes something hostile (`javascript:`). The browser never
 * loads them itself (a remote image would let its host see every visitor): the server
 * fetches what `imageSource` accepts and serves it from our origin, at
 * `contractImagePath`. Everything else is "no image".
 */
export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/';

/** Picture formats served as they are; SVG is not (it is a document, not a picture). */
export const RASTER_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

export type ImageSource =
  | { kind: 'https'; url: string }
  /** An inline picture: no fetch, only decoding. */
  | { kind: 'data'; type: string; base64: boolean; payload: string };

const MAX_SOURCE_LENGTH = 100_000;

/** Where a contract's image may come from, or null when it cannot be one we serve. */
export function imageSource(
  raw: string | null | undefined,
  ipfsGateway = DEFAULT_IPFS_GATEWAY,
): ImageSource | null {
  if (!raw) return null;
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_SOURCE_LENGTH) return null;
  const data = /^data:(image\/[a-z+.-]+)(;base64)?,(.*)$/is.exec(text);
  if (data) {
    const type = data[1]!.toLowerCase();
    if (!RASTER_TYPES.includes(type)) return null;
    return { kind: 'data', type, base64: data[2] !== undefined, payload: data[3]! };
  }
  if (/^ipfs:\/\//i.test(text)) {
    const path = text.slice('ipfs://'.length).replace(/^ipfs\//i, '');
    if (!/^[A-Za-z0-9._~/-]+$/.test(path) || path.includes('..')) return null;
    return httpsSource(ipfsGateway.replace(/\/*$/, '/') + path);
  }
  return httpsSource(text);
}

/** https only: a plain http image would travel, and could be changed, in clear. */
function httpsSource(text: string): ImageSource | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' || url.hostname === '') return null;
    if (url.username !== '' || url.password !== '') return null;
    return { kind: 'https', url: url.href };
  } catch {
    return null;
  }
}

/**
 * Our route for a contract's image. The `v` parameter changes with the image's source, so
 * a browser that keeps the picture for long asks again when the contract names another.
 */
export function contractImagePath(address: string, raw: string): string {
  return `/api/images/contracts/${address}?v=${fnv1a(raw.trim())}`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
