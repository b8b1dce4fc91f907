import { shortenHex } from '../../lib/address';
import type {
  CurrencyRef,
  Holder,
  HoldersFigures,
  Overview,
  TokenAnswer,
  WalletCollection,
} from '../../lib/answers';
import { formatCurrencyAmount } from '../../lib/currency-amount';
import { formatCount, formatShare } from '../../lib/format';
import { formatPrice, readPrice, type Price } from '../../lib/price';
import { formatDay } from '../../lib/time';

/**
 * What a preview shows, in words: the same lines make the image and the page's meta
 * description, so a chat's card and its picture never disagree.
 */
export interface PreviewLayout {
  /** The large line: a collection's name, a token's id, a wallet's short address. */
  title: string;
  /** The line under it: what the title is, and of what. */
  subtitle: string;
  /** Key figures, at most `MAX_FIGURES`, each a label and its value. */
  figures: { label: string; value: string }[];
  /** The address the image's placeholder pattern is drawn from. */
  seed: string;
}

export const MAX_FIGURES = 6;
// Amounts on a card are short: the page has them exactly.
const AMOUNT_DIGITS = 2;

interface CollectionFacts {
  address: string;
  name: string | null;
  symbol: string | null;
}

// A name or symbol is whatever a contract's deployer wrote: a card, its tags and its key
// carry only a sane start of it.
export const MAX_NAME_LENGTH = 200;

/** At most `MAX_NAME_LENGTH` characters, the cut marked with `…`. */
export function clipName(text: string): string {
  const start = [...text.slice(0, 2 * MAX_NAME_LENGTH)];
  if (start.length <= MAX_NAME_LENGTH && text.length <= 2 * MAX_NAME_LENGTH) return text;
  return `${start.slice(0, MAX_NAME_LENGTH - 1).join('')}…`;
}

const collectionName = (c: CollectionFacts) =>
  c.name === null ? `Contract ${shortenHex(c.address)}` : clipName(c.name);
const symbolOf = (c: CollectionFacts) => (c.symbol === null ? null : clipName(c.symbol));
const collectionSubtitle = (c: CollectionFacts) =>
  [symbolOf(c), `Collection ${shortenHex(c.address)}`].filter(Boolean).join(' · ');
/** The one line of a collection the index holds nothing of yet. */
const notIndexed = (label: string) => [{ label, value: 'not indexed yet' }];

/** A collection: its name (or short address), symbol, events, sales, holders, volumes. */
export function collectionLayout(
  collection: CollectionFacts,
  figures: Overview | null,
): PreviewLayout {
  const lines: PreviewLayout['figures'] = figures
    ? [
        { label: 'Events', value: formatCount(figures.events) },
        { label: 'Sales', value: formatCount(figures.sales) },
        { label: 'Holders', value: formatCount(figures.holders) },
        ...volumeFigures(figures),
      ]
    : notIndexed('Events');
  return {
    title: collectionName(collection),
    subtitle: collectionSubtitle(collection),
    figures: lines.slice(0, MAX_FIGURES),
    seed: collection.address,
  };
}

const volumeFigures = (figures: Overview) =>
  figures.volume.map((volume) => amountFigure('Volume', volume.volume, volume.currency));

/** A collection's holders now: how many, the largest and its share, the ten largest's. */
export function holdersLayout(
  collection: CollectionFacts,
  figures: (HoldersFigures & { top: Holder | null }) | null,
): PreviewLayout {
  const top = figures?.top;
  const lines: PreviewLayout['figures'] = !figures
    ? notIndexed('Holders')
    : [
        { label: 'Holders', value: formatCount(figures.totalHolders) },
        ...(top && figures.tokensHeld > 0
          ? [
              { label: 'Top holder', value: shortenHex(top.owner) },
              { label: 'Top holder’s share', value: formatShare(top.tokens / figures.tokensHeld) },
              { label: 'Top 10 hold', value: formatShare(figures.top10Share) },
            ]
          : []),
        { label: 'Tokens held', value: formatCount(figures.tokensHeld) },
      ];
  return {
    title: `Holders of ${collectionName(collection)}`,
    subtitle: collectionSubtitle(collection),
    figures: lines.slice(0, MAX_FIGURES),
    seed: collection.address,
  };
}

/**
 * A collection's market over its whole history, flagged sales counted (the page's own
 * default): its sales and their volume in each currency.
 */
export function marketLayout(collection: CollectionFacts, figures: Overview | null): PreviewLayout {
  const lines: PreviewLayout['figures'] = figures
    ? [{ label: 'Sales', value: formatCount(figures.sales) }, ...volumeFigures(figures)]
    : notIndexed('Sales');
  return {
    title: `${collectionName(collection)} market`,
    subtitle: collectionSubtitle(collection),
    figures: lines.slice(0, MAX_FIGURES),
    seed: collection.address,
  };
}

/** A token: its id, its holder or burn, how many events, its last sale. */
export function tokenLayout(
  collection: CollectionFacts,
  tokenId: string,
  token: TokenAnswer,
): PreviewLayout {
  const lastSale = [...token.events].reverse().find((event) => event.kind === 'sale');
  const price = lastSale && readPrice(lastSale);
  const lines: PreviewLayout['figures'] = [
    token.burned
      ? { label: 'Holder', value: 'burned' }
      : { label: 'Holder', value: token.owner ? shortenHex(token.owner) : 'not known yet' },
    ...(token.since !== null && !token.burned
      ? [{ label: 'Held since', value: formatDay(token.since) }]
      : []),
    { label: 'Events', value: formatCount(token.events.length) },
    ...(lastSale
      ? [lastSaleFigure(price), { label: 'Sold on', value: formatDay(lastSale.timestamp) }]
      : [{ label: 'Last sale', value: 'none' }]),
  ];
  return {
    title: `Token #${shortId(tokenId)}`,
    subtitle: [collectionName(collection), symbolOf(collection)].filter(Boolean).join(' · '),
    figures: lines.slice(0, MAX_FIGURES),
    seed: collection.address,
  };
}

/** A sale's price, an assumed currency said in the label as for amounts. */
function lastSaleFigure(price: Price | null | undefined) {
  if (!price) return { label: 'Last sale', value: 'no price' };
  if (price.kind === 'known' && price.assumed) {
    return {
      label: `Last sale (${price.currency.symbol} assumed)`,
      value: formatPrice({ ...price, assumed: false }),
    };
  }
  return { label: 'Last sale', value: formatPrice(price) };
}

/** A wallet: its short address, collections, tokens held now, bought and sold. */
export function walletLayout(address: string, collections: WalletCollection[]): PreviewLayout {
  const count = (side: 'bought' | 'sold') =>
    collections.reduce(
      (sum, c) => sum + c[side].reduce((total, trade) => total + trade.sales, 0),
      0,
    );
  const lines: PreviewLayout['figures'] = [
    { label: 'Collections', value: formatCount(collections.length) },
    { label: 'Tokens held', value: formatCount(collections.reduce((s, c) => s + c.holds, 0)) },
    { label: 'Bought', value: formatCount(count('bought')) },
    { label: 'Sold', value: formatCount(count('sold')) },
  ];
  // The most traded currency of each side first; others as room allows.
  const [spent, ...moreSpent] = amounts(collections, 'bought', 'Spent');
  const [received, ...moreReceived] = amounts(collections, 'sold', 'Received');
  lines.push(...[spent, received, ...moreSpent, ...moreReceived].filter((line) => !!line));
  return {
    title: `Wallet ${shortenHex(address)}`,
    subtitle: 'Starknet address',
    figures: lines.slice(0, MAX_FIGURES),
    seed: address,
  };
}

/**
 * The amount of each currency a wallet's trades were in, added up within that currency
 * only (prices are never summed across currencies), the most traded currency first.
 */
function amounts(collections: WalletCollection[], side: 'bought' | 'sold', label: string) {
  const byCurrency = new Map<string, { currency: CurrencyRef; sales: number; units: bigint }>();
  for (const collection of collections) {
    for (const trade of collection[side]) {
      const key = trade.currency.address;
      const entry = byCurrency.get(key) ?? { currency: trade.currency, sales: 0, units: 0n };
      entry.sales += trade.sales;
      entry.units += BigInt(trade.amount);
      byCurrency.set(key, entry);
    }
  }
  return [...byCurrency.values()]
    .sort((a, b) => b.sales - a.sales)
    .map((entry) => amountFigure(label, entry.units.toString(), entry.currency));
}

/** An amount in its currency, short: "≈ 89.96 ETH". */
function amountFigure(label: string, units: string, currency: CurrencyRef) {
  return { label, value: formatCurrencyAmount(units, currency, AMOUNT_DIGITS) };
}

/** A token id short enough for a title: long ids keep both ends. */
function shortId(tokenId: string): string {
  return tokenId.length <= 16 ? tokenId : `${tokenId.slice(0, 6)}…${tokenId.slice(-6)}`;
}

/** The lines as one sentence, for a page's description. */
export function describeLayout(layout: PreviewLayout): string {
  const figures = layout.figures.map((figure) => `${figure.label}: ${figure.value}`).join(' · ');
  return [layout.subtitle, figures].filter(Boolean).join(' — ');
}
