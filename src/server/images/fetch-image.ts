import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { RASTER_TYPES } from '../../lib/image-url';
import {
  AddressRefused as Refused,
  isAddressLiteral,
  lookupAs,
  pinnedAddress,
  type AddressCheck,
} from '../network-address';
import { sniffImageType } from './sniff-image';

export interface FetchLimits {
  /** Largest picture taken (bytes); a larger one is refused, not cut. */
  maxBytes: number;
  /** The whole fetch, every redirect and name lookup included. */
  timeoutMs: number;
  /** Redirects followed, each to a checked https address. */
  maxRedirects: number;
}

export interface FetchImageOptions extends FetchLimits, AddressCheck {
  /** Certificate authorities trusted instead of Node's (a test's own stand-in). */
  ca?: string;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 5_000,
  maxRedirects: 3,
};

export type Fetched =
  { ok: true; bytes: Uint8Array<ArrayBuffer>; type: string } | { ok: false; reason: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Hosts that call every file this are common (object stores); the bytes decide then.
const UNTYPED = ['application/octet-stream', 'binary/octet-stream'];

/**
 * A stranger's picture, fetched for our visitors without letting its URL aim the server
 * anywhere else: https only; each host's name resolved here and every address it gives
 * checked, then the connection made to that checked address (a second lookup could answer
 * otherwise); redirects followed by hand, each hop checked the same way; the size, the
 * type (from the bytes) and the time bounded.
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<Fetched> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    let target = checkedUrl(url);
    for (let hop = 0; ; hop++) {
      const address = await untilAborted(pinnedAddress(target.hostname, options), signal);
      const answer = await get(target, address, signal, options);
      if (answer.kind === 'picture') return { ok: true, ...answer.picture };
      if (hop === options.maxRedirects) {
        throw new Refused(`more than ${options.maxRedirects} redirects`);
      }
      target = checkedUrl(answer.location, target);
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    if (signal.aborted) return { ok: false, reason: `no answer within ${options.timeoutMs} ms` };
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      reason: `could not be fetched (${typeof code === 'string' ? code : (error as Error).message})`,
    };
  }
}

function checkedUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new Refused('not a URL');
  }
  if (url.protocol !== 'https:') throw new Refused(`${url.protocol} is not https:`);
  if (url.username !== '' || url.password !== '') throw new Refused('a URL with credentials');
  return url;
}

type Answer =
  | { kind: 'picture'; picture: { bytes: Uint8Array<ArrayBuffer>; type: string } }
  | { kind: 'redirect'; location: string };

function get(url: URL, address: string, signal: AbortSignal, options: FetchImageOptions) {
  const literal = isAddressLiteral(url.hostname);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        lookup: lookupAs(address),
        // A name is the certificate's to prove; an address literal has no name to send.
        ...(literal ? {} : { servername: url.hostname }),
        agent: false,
        signal,
        headers: { accept: RASTER_TYPES.join(', '), 'user-agent': 'token-activity-dashboard' },
        ...(options.ca && { ca: options.ca }),
      },
      (response) => {
        read(response, options.maxBytes).then(resolve, (error: unknown) => {
          response.destroy();
          reject(error as Error);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function read(response: IncomingMessage, maxBytes: number): Promise<Answer> {
  const status = response.statusCode ?? 0;
  if (REDIRECTS.has(status)) {
    const location = response.headers.location;
    if (!location) throw new Refused(`a ${status} redirect without a Location`);
    response.resume();
    return { kind: 'redirect', location };
  }
  if (status !== 200) throw new Refused(`its host answered ${status}`);
  const declared = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (declared !== '' && !RASTER_TYPES.includes(declared) && !UNTYPED.includes(declared)) {
    throw new Refused(`${declared} is not a picture we show`);
  }
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    throw new Refused(`larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Refused(`larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  const type = sniffImageType(bytes);
  if (!type) throw new Refused('not a PNG, JPEG, GIF, WebP or AVIF picture');
  return { kind: 'picture', picture: { bytes, type } };
}

/** A lookup cannot be cancelled: it is left behind when time is up. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
