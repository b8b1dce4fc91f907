import { z } from 'zod';
import { canonicalAddress } from '../../lib/address';
import { CURRENCIES } from '../../lib/price';
import { FIRST_TAX_YEAR, parseTaxYear, utcYear } from '../../lib/tax-year';
import { canonicalTokenId } from '../../lib/token-id';
import { EVENT_KINDS, type EventKind } from '../../lib/token-event';
import {
  EVENT_SORTS,
  HELD_INTERVALS,
  HOLDER_CHANGES,
  INTERVALS,
  MAX_PAGE_SIZE,
  RANKING_SORTS,
  WASH_MODES,
  WINDOWS,
  type EventSortId,
} from '../../lib/answers';
import type { EventFilters } from '../index/events-query';
import { parseUtc } from '../../lib/utc';

/**
 * The query API's parameters, each checked with a message that says what it accepts.
 * Unknown parameters are refused too, so a mistyped one is never silently ignored. Each
 * says what it is (`describe`): the API document (openapi.ts) is made from these schemas.
 */
/** Unix seconds, or a UTC date (`2025-06-29`) or minute (`2025-06-29T14:00Z`). */
function time(name: string) {
  return z
    .string()
    .transform((value, ctx) => {
      if (/^[0-9]{1,11}$/.test(value)) return Number(value);
      const seconds = parseUtc(value);
      if (seconds !== null) return seconds;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be unix seconds or a UTC date like 2025-06-29 or 2025-06-29T14:00Z.`,
      });
      return z.NEVER;
    })
    .describe('Unix seconds, or a UTC date (2025-06-29) or minute (2025-06-29T14:00Z).');
}

const address = (name: string) =>
  z
    .string()
    .transform((value, ctx) => {
      const canonical = canonicalAddress(value);
      if (canonical) return canonical;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a Starknet address (0x and up to 64 hex digits).`,
      });
      return z.NEVER;
    })
    .describe('A Starknet address: 0x and up to 64 hex digits.');

const units = (name: string) =>
  z
    .string()
    .regex(/^[0-9]{1,78}$/, `${name} must be a whole number of base units (digits only).`)
    .describe('Base units of the currency named (digits only); only with currency.');

const kinds = z
  .string()
  .transform((value, ctx): EventKind[] => {
    const parts = value
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter(Boolean);
    const unknown = parts.filter((part) => !(EVENT_KINDS as readonly string[]).includes(part));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `kind must be among ${EVENT_KINDS.join(', ')}; not ${unknown.join(', ')}.`,
      });
      return z.NEVER;
    }
    return parts as EventKind[];
  })
  .describe(`Comma-separated kinds among ${EVENT_KINDS.join(', ')}.`);

const currency = z
  .string()
  .transform((value, ctx) => {
    const lower = value.toLowerCase();
    if (lower === 'none') return 'none';
    const known = CURRENCIES.find((c) => c.symbol.toLowerCase() === lower);
    if (known) return known.address;
    const canonical = canonicalAddress(value);
    if (canonical) return canonical;
    ctx.addIssue({
      code: 'custom',
      message:
        'currency must be ETH, STRK, USDC, none (no currency named) or a currency contract address.',
    });
    return z.NEVER;
  })
  .describe(
    'ETH, STRK, USDC, none (sales naming no currency) or a currency contract address; ETH includes sales naming none.',
  );

const tokenId = z
  .string()
  .transform((value, ctx) => {
    const canonical = canonicalTokenId(value);
    if (canonical !== null) return canonical;
    ctx.addIssue({
      code: 'custom',
      message: 'token must be a token id: a decimal number or 0x hex, below 2^256.',
    });
    return z.NEVER;
  })
  .describe('A token id: a decimal number or 0x hex, below 2^256.');

const sort = z
  .string()
  .transform((value, ctx) => {
    const desc = value.startsWith('-');
    const id = desc ? value.slice(1) : value;
    if ((EVENT_SORTS as readonly string[]).includes(id)) return { id: id as EventSortId, desc };
    ctx.addIssue({
      code: 'custom',
      message: `sort must be one of ${EVENT_SORTS.flatMap((s) => [s, `-${s}`]).join(', ')}.`,
    });
    return z.NEVER;
  })
  .describe(`One of ${EVENT_SORTS.join(', ')}; - first for descending (default -time).`);

const limit = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]{1,6}$/, `limit must be a whole number from 1 to ${max}.`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `limit must be a whole number from 1 to ${max}.`)
    .default(fallback)
    .describe(`Rows a page, 1 to ${max} (default ${fallback}).`);

/**
 * Free text (a marketplace's name, a search) of up to `max` characters. Control characters
 * (Unicode's Cc: U+0000–U+001F, U+007F–U+009F) are refused: no name holds one, and
 * PostgreSQL refuses NUL in text, which made a 500 of `marketplace=%00`.
 */
const freeText = (name: string, what: string, max: number) => {
  const message = `${name} must be at most ${max} characters, no control characters: ${what}.`;
  return z
    .string()
    .max(max, message)
    .regex(/^\P{Cc}*$/u, message);
};

const cursor = z
  .string()
  .max(2000, 'cursor is not one this server gave.')
  .describe("The previous page's next, passed back unchanged with the same parameters.")
  .optional();

/**
 * Sales flagged as wash trades counted (`include`, the default), left out (`exclude`) or
 * alone (`only`: a list's filter; figures that count whole hours take the first two).
 */
const wash = z
  .enum(WASH_MODES, { error: 'wash must be include, exclude or only.' })
  .describe('Sales flagged as wash trades: include (default), exclude, or only them.');
const countedWash = z
  .enum(['include', 'exclude'], { error: 'wash must be include or exclude.' })
  .describe('Sales flagged as wash trades: include (default) or exclude.');

export const filterShape = {
  kind: kinds.optional(),
  address: address('address').describe('Sender or receiver: a Starknet address.').optional(),
  from: time('from').optional(),
  to: time('to').describe('Exclusive end: unix seconds, or a UTC date or minute.').optional(),
  token: tokenId.optional(),
  marketplace: freeText('marketplace', "a marketplace's name", 100)
    .min(1, "marketplace must be a marketplace's name, not empty.")
    .describe("A marketplace's name.")
    .optional(),
  currency: currency.optional(),
  minPrice: units('minPrice').optional(),
  maxPrice: units('maxPrice').optional(),
  wash: wash.optional(),
};

const withPriceRule = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject(shape)
    .refine(
      (v) =>
        !(
          ('minPrice' in v && v.minPrice !== undefined) ||
          ('maxPrice' in v && v.maxPrice !== undefined)
        ) ||
        ('currency' in v && v.currency !== undefined),
      'A price range needs a currency (currency=ETH, STRK, USDC, none or an address): prices in different currencies are never compared.',
    )
    .refine(
      (v) =>
        !('from' in v && 'to' in v && typeof v.from === 'number' && typeof v.to === 'number') ||
        v.from < v.to,
      'from must be before to.',
    );

export const eventsParams = withPriceRule({
  ...filterShape,
  sort: sort.default({ id: 'time', desc: true }),
  limit: limit(MAX_PAGE_SIZE, 50),
  cursor,
});
export const exportParams = withPriceRule({
  ...filterShape,
  sort: sort.default({ id: 'time', desc: true }),
  format: z
    .enum(['csv', 'json'], { error: 'format must be csv or json.' })
    .default('csv')
    .describe('The file: csv (default) or json.'),
});
export const seriesParams = withPriceRule({
  ...filterShape,
  interval: z
    .enum(INTERVALS, { error: `interval must be one of ${INTERVALS.join(', ')}.` })
    .default('day')
    .describe('Bucket size, UTC, weeks from Monday; at most 2,000 buckets over the span.'),
});
export const viewFiguresParams = withPriceRule(filterShape);
export const holdersParams = z.strictObject({
  asOf: time('asOf').describe('Holders as of this time (unix seconds or a UTC date).').optional(),
  owner: address('owner').describe('One holder: a Starknet address.').optional(),
  limit: limit(MAX_PAGE_SIZE, 50),
  cursor,
});
export const holdersExportParams = z.strictObject({
  asOf: time('asOf').describe('Holders as of this time (unix seconds or a UTC date).').optional(),
});
export const alsoHoldParams = z.strictObject({
  limit: limit(100, 20).describe('Collections, 1 to 100 (default 20).'),
});
export const overlapParams = z.strictObject({ limit: limit(MAX_PAGE_SIZE, 50), cursor });
const compareSpan = {
  from: time('from')
    .describe('The first moment (unix seconds or a UTC date); default: 30 days before to.')
    .optional(),
  to: time('to')
    .describe('The second moment (unix seconds or a UTC date); default: now.')
    .optional(),
};
const fromNotAfterTo = (v: { from?: number | undefined; to?: number | undefined }) =>
  v.from === undefined || v.to === undefined || v.from <= v.to;
const FROM_AFTER_TO = 'from must not be after to: the first moment comes first.';
export const compareParams = z
  .strictObject({
    ...compareSpan,
    change: z
      .enum(HOLDER_CHANGES, { error: `change must be one of ${HOLDER_CHANGES.join(', ')}.` })
      .describe(`Only holders that ${HOLDER_CHANGES.join(', ')}.`)
      .optional(),
    limit: limit(MAX_PAGE_SIZE, 50),
    cursor,
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export const compareExportParams = z
  .strictObject({
    ...compareSpan,
    part: z
      .enum(['holders', 'figures'], { error: 'part must be holders or figures.' })
      .default('holders')
      .describe('holders (default): each holder whose count changed; figures: both moments.'),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export const rankingParams = z.strictObject({
  window: z
    .enum(Object.keys(WINDOWS) as [keyof typeof WINDOWS], {
      error: 'window must be 24h, 7d, 30d or all.',
    })
    .default('7d')
    .describe('The span activity is ranked over.'),
  sort: z
    .string()
    .transform((value, ctx) => {
      const desc = value.startsWith('-');
      const id = desc ? value.slice(1) : value;
      if ((RANKING_SORTS as readonly string[]).includes(id))
        return { id: id as (typeof RANKING_SORTS)[number], desc };
      ctx.addIssue({
        code: 'custom',
        message: `sort must be one of ${RANKING_SORTS.join(', ')} (with - for descending).`,
      });
      return z.NEVER;
    })
    .default({ id: 'events', desc: true })
    .describe(`One of ${RANKING_SORTS.join(', ')}; - first for descending (default -events).`),
  currency: currency
    .default(CURRENCIES[0]!.address)
    .describe('The currency volume is ranked in (default ETH).'),
  wash: countedWash.optional(),
  q: freeText('q', 'part of a name, a symbol or an address', 200)
    .transform((value) => value.trim() || undefined)
    .describe('Part of a name, a symbol or an address.')
    .optional(),
  limit: limit(MAX_PAGE_SIZE, 100),
  cursor,
});
export const walletEventsParams = z.strictObject({
  collection: address('collection').describe('One collection: its address.').optional(),
  kind: kinds.optional(),
  limit: limit(MAX_PAGE_SIZE, 50),
  cursor,
});
export const walletCollectionParams = z.strictObject({
  interval: z
    .enum(HELD_INTERVALS, { error: `interval must be one of ${HELD_INTERVALS.join(', ')}.` })
    .describe(
      'Bucket size of held (default: days up to three months, weeks up to two years, then months).',
    )
    .optional(),
});
export const marketParams = withPriceRule({
  from: filterShape.from,
  to: filterShape.to,
  wash: countedWash.optional(),
});
/** A UTC calendar year, from 1970 to the current one (read when asked). */
const taxYear = z
  .string()
  .transform((value, ctx) => {
    const year = parseTaxYear(value, utcYear(Date.now()));
    if (year.ok) return year.value;
    ctx.addIssue({ code: 'custom', message: `year: ${year.error}` });
    return z.NEVER;
  })
  .describe(`A UTC calendar year, ${FIRST_TAX_YEAR} to this one (default: this one).`);
export const taxYearParams = z.strictObject({ year: taxYear.optional() });
/** A frame's largest size the embedding site allows, in CSS pixels. */
const pixels = (name: string) =>
  z
    .string()
    .regex(/^[0-9]{1,5}$/, `${name} must be a whole number of pixels, like 600.`)
    .transform(Number)
    .refine((n) => n >= 1, `${name} must be 1 pixel or more.`)
    .describe(
      `The largest ${name === 'maxwidth' ? 'width' : 'height'} the frame may take, in pixels.`,
    );
export const oembedParams = z.strictObject({
  url: z
    .string({ error: 'url is required: the page to embed.' })
    .max(2000, 'url is longer than any page of this server.')
    .describe(
      "A collection's page on this server (https://…/contracts/0x…), or one of its embedded pages (…/embed/contracts/0x…/activity or /latest).",
    ),
  maxwidth: pixels('maxwidth').optional(),
  maxheight: pixels('maxheight').optional(),
  format: z
    .enum(['json'], { error: 'format: only json is answered.' })
    .describe('json, the only format answered.')
    .optional(),
});
export const emptyParams = z.strictObject({});
export const overviewParams = z.strictObject({ wash: countedWash.optional() });
/** A live stream opened again where the `Last-Event-ID` header cannot be sent. */
export const liveParams = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,15}_\d{1,12}$/, 'after must be the id of the last event the stream sent')
    .describe(
      'The id of the last event received: the stream goes on after it (as `Last-Event-ID`).',
    )
    .optional(),
});

export const lookupParams = z.strictObject({
  collection: address('collection').describe('The collection in view: its address.').optional(),
});
/** What the lookup is asked about: a 0x felt (an address or a hash, maybe a token id) or a decimal token id. */
export const lookupValue = z
  .string()
  .transform((value, ctx) => {
    const tokenId = canonicalTokenId(value) ?? undefined;
    const hex = /^0x/i.test(value) ? (canonicalAddress(value) ?? undefined) : undefined;
    if (hex !== undefined || tokenId !== undefined) return { address: hex, tokenId };
    ctx.addIssue({
      code: 'custom',
      message:
        'The value looked up must be 0x and up to 64 hex digits (an address or a transaction hash), or a decimal token id.',
    });
    return z.NEVER;
  })
  .describe(
    '0x and up to 64 hex digits (an address or a transaction hash), or a decimal token id.',
  );
export const transactionHash = address('The transaction hash');
export const contractAddress = address('The collection address');
export const walletAddress = address('The wallet address');
export const tokenParam = tokenId;

/** The events filters of parsed parameters. */
type FilterValues = { [K in keyof typeof filterShape]?: z.infer<(typeof filterShape)[K]> };

export function filtersOf(v: FilterValues): EventFilters {
  const filters: EventFilters = {};
  if (v.kind?.length) filters.kinds = v.kind;
  if (v.address) filters.address = v.address;
  if (v.from !== undefined) filters.from = v.from;
  if (v.to !== undefined) filters.to = v.to;
  if (v.token !== undefined) filters.tokenId = v.token;
  if (v.marketplace !== undefined) filters.marketplace = v.marketplace;
  if (v.currency !== undefined) filters.currency = v.currency;
  if (v.minPrice !== undefined) filters.minPrice = v.minPrice;
  if (v.maxPrice !== undefined) filters.maxPrice = v.maxPrice;
  if (v.wash === 'exclude') filters.excludeWash = true;
  if (v.wash === 'only') filters.onlyWash = true;
  return filters;
}

/** The first problem of a failed parse, in words. */
export function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  if (issue.code === 'unrecognized_keys') {
    return `Unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
  }
  return issue.message;
}

/** A webhook's number, as its creation answered it. */
export const webhookId = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, 'The webhook id must be the number its creation answered.')
  .describe('The webhook’s id, as its creation answered it.');
export const deliveriesParams = z.strictObject({ limit: limit(MAX_PAGE_SIZE, 50) });
