import { Hono } from 'hono';
import type pg from 'pg';
import { canonicalAddress } from '../../lib/address';
import { DEFAULT_IPFS_GATEWAY, imageSource } from '../../lib/image-url';
import { errorResponse } from '../proxy/error-response';
import { DEFAULT_FETCH_LIMITS, fetchImage, type FetchImageOptions } from './fetch-image';
import { createImageCache } from './image-cache';
import { DAY_MS } from '../../lib/utc';

export interface ImageOptions {
  /** Off: no contract image is fetched or served; the browser draws its placeholder. */
  enabled: boolean;
  /** Where `ipfs://` images are fetched from. */
  ipfsGateway: string;
  /** Pictures kept in memory at most (bytes). */
  cacheBytes?: number;
  /** Limits of one fetch, and a test's own resolver and certificate authority. */
  fetch?: Partial<FetchImageOptions>;
}

export const DEFAULT_IMAGES: ImageOptions = { enabled: true, ipfsGateway: DEFAULT_IPFS_GATEWAY };

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
const KEEP_MS = DAY_MS;
const FAILURE_MS = 10 * 60_000;
// The route's URL changes with the contract's image (`?v=`): a day is safe to keep.
const PICTURE_CACHE_CONTROL = 'public, max-age=86400';
// A failed picture is asked again after the server's own failure is stale.
const FAILURE_CACHE_CONTROL = `public, max-age=${FAILURE_MS / 1000}`;
export const IMAGES_PREFIX = '/api/images/contracts/';

/**
 * Contracts' images served from our origin (`/api/images/contracts/0x…`): the server reads
 * the contract's image URL from the index, fetches it (fetch-image.ts), keeps it
 * (image-cache.ts) and answers the bytes with their sniffed type, under a policy that
 * lets them be nothing but a picture.
 */
export function createImages(options: ImageOptions & { pool: pg.Pool }) {
  const { pool, enabled, ipfsGateway } = options;
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.fetch };
  const cache = createImageCache({
    maxBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES,
    maxPictureBytes: limits.maxBytes,
    keepMs: KEEP_MS,
    failureMs: FAILURE_MS,
    fetch: (url) => fetchImage(url, limits),
  });
  const app = new Hono<{ Variables: { route: string } }>();

  app.get(`${IMAGES_PREFIX}:address`, async (c) => {
    c.set('route', IMAGES_PREFIX.slice(0, -1));
    if (!enabled) {
      return noPicture('Collection images are turned off on this server (IMAGE_PROXY=off).');
    }
    const address = canonicalAddress(c.req.param('address'));
    if (!address) {
      return errorResponse({
        kind: 'bad_request',
        status: 400,
        message: 'A collection image is /api/images/contracts/0x… with a 0x address.',
      });
    }
    const { rows } = await pool.query<{ image: string | null }>(
      'SELECT image FROM idx_contracts WHERE address = $1',
      [address],
    );
    const source = imageSource(rows[0]?.image, ipfsGateway);
    if (!source) return noPicture('This collection has no image that can be shown.');
    const picture = await cache.get(source);
    if (!picture.ok) {
      return noPicture(`This collection’s image could not be shown: ${picture.reason}.`);
    }
    return new Response(c.req.method === 'HEAD' ? null : picture.bytes, {
      headers: {
        'content-type': picture.type,
        'content-length': String(picture.bytes.byteLength),
        'cache-control': PICTURE_CACHE_CONTROL,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
      },
    });
  });

  return { app, stats: cache.stats };
}

function noPicture(message: string): Response {
  return errorResponse(
    { kind: 'not_found', status: 404, message },
    { 'cache-control': FAILURE_CACHE_CONTROL },
  );
}
