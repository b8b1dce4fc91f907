import { ZERO_ADDRESS } from '../../lib/address';
import { CURRENCIES, ELEMENT, HEX_PRICES_SINCE, VENTORY, type Currency } from './catalogue';
import type { Sale, Token } from './event-source';
import { fieldElementHex, hash32 } from './random';

/**
 * The values of an event derived from numbers when its record is built (a wallet's
 * address, hashes, a token's lot, what a marketplace reported of a sale): the same every
 * time they are asked for, and nothing kept in memory. Shared by the in-memory dataset and
 * the scale generator, so both make records alike.
 */

/** Wallet number standing for the zero address: the sender of mints, receiver of burns. */
export const NOBODY = -1;

export const SALT = {
  wallet: 1,
  simulation: 2,
  transaction: 3,
  eventId: 4,
  sale: 5,
  quantity: 6,
  currency: 7,
};

export const walletAddress = (seed: number, wallet: number): string =>
  wallet === NOBODY ? ZERO_ADDRESS : fieldElementHex(seed, SALT.wallet, wallet);

export const eventIdOf = (seed: number, seq: number): string =>
  fieldElementHex(seed, SALT.eventId, seq);

export const transactionHashOf = (seed: number, transaction: number): string =>
  fieldElementHex(seed, SALT.transaction, transaction);

/** Copies a token moves at once: 1 for ERC721, a small lot for ERC1155. */
export const tokenQuantity = (seed: number, type: Token['contract']['type'], index: number) =>
  type === 'ERC721' ? 1 : 1 + (hash32(seed, SALT.quantity, index) % 25);

/**
 * Sale prices, drawn log-uniformly between these amounts of the currency and rounded to
 * these fractional digits.
 */
const PRICE_RANGES = {
  ETH: { min: 0.002, max: 3, digits: 4 },
  STRK: { min: 2, max: 5_000, digits: 2 },
  USDC: { min: 5, max: 500, digits: 2 },
  unknown: { min: 1, max: 10_000, digits: 0 },
} as const;

/** What the marketplace reported of the sale that is event `seq`. */
export function saleOf(seed: number, seq: number, timestamp: number, token: Token): Sale {
  const draw = (part: number): number => hash32(seed, SALT.sale, seq, part);
  const marketplace = draw(0) % 5 < 3 ? ELEMENT : VENTORY;
  let currency: Currency | null = null;
  if (marketplace.reportsCurrency) {
    const pick = draw(1) % 100;
    currency =
      pick < 50
        ? CURRENCIES.ETH
        : pick < 78
          ? CURRENCIES.STRK
          : pick < 96
            ? CURRENCIES.USDC
            : {
                symbol: null,
                decimals: 18,
                address: fieldElementHex(seed, SALT.currency, draw(2) % 3),
              };
  }
  // Without a currency the marketplace's own API assumes ETH, and so are its prices.
  const range = PRICE_RANGES[currency === null ? 'ETH' : (currency.symbol ?? 'unknown')];
  const amount = range.min * (range.max / range.min) ** (draw(3) / 0x1_0000_0000);
  const decimals = currency?.decimals ?? 18;
  const units =
    BigInt(Math.max(1, Math.round(amount * 10 ** range.digits))) *
    10n ** BigInt(decimals - range.digits);
  return {
    marketplace,
    currency,
    price: units.toString(),
    // Records written since October 2024 are hex; a fifth of them are not, so lists mix both.
    hexPrice: timestamp >= HEX_PRICES_SINCE && draw(4) % 5 !== 0,
    quantity: marketplace === ELEMENT && token.contract.type === 'ERC1155' ? token.quantity : 1,
    reversed: draw(5) % 100 < 15,
    saleFirst: draw(6) % 2 === 0,
  };
}
