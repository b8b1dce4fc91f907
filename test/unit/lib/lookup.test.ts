import { describe, expect, it } from 'vitest';
import { addressMatcher, resolveAddress } from '../../../src/lib/address-match';
import type { Contract } from '../../../src/lib/contract';
import {
  notListedText,
  parseLookup,
  resolveLookup,
  type KnownContracts,
} from '../../../src/lib/lookup';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const GALLERY = A('60582df2cd4ad2c988b11fdede5c43f56a432e895df255ccd1af129160044b8');
const PILOTS = A('5a4d05cb49c7da3cd557e214462d866dacad68f8d9a3473f43e5b0bb50b1194');
const FOXES = A('1e66aa0000000000000000000000000000000000000000000000000000cc36');
const WALLET = A('7b84aa11112222333344445555666677778888999900001111222233337481');
const contracts: Contract[] = [
  { address: GALLERY, name: 'StarkVerse Gallery', symbol: 'SVG', type: 'ERC721' },
  { address: PILOTS, name: 'Frozen Pilots', symbol: 'FRPI', type: 'ERC721' },
  { address: FOXES, name: 'Frozen Foxes', symbol: 'FRFO', type: 'ERC1155' },
];
const known: KnownContracts = { contracts, complete: true };

describe('resolveLookup', () => {
  it.each([
    ['a contract address', GALLERY, { kind: 'go', address: GALLERY }],
    [
      'its short spelling',
      '0x60582DF2CD4AD2C988B11FDEDE5C43F56A432E895DF255CCD1AF129160044B8',
      { kind: 'go', address: GALLERY },
    ],
    [
      'an address and a token id',
      `${GALLERY} 0x0c`,
      { kind: 'go', address: GALLERY, tokenId: '12' },
    ],
    ['an address/token', `${GALLERY}/858324`, { kind: 'go', address: GALLERY, tokenId: '858324' }],
    [
      'a link to a token page',
      `https://dash.example/contracts/${GALLERY}/tokens/12?sort=time`,
      { kind: 'go', address: GALLERY, tokenId: '12' },
    ],
    ['the displayed short form', '0x6058…44b8', { kind: 'go', address: GALLERY }],
    [
      'the short form with three dots',
      '0x6058...44B8 858324',
      { kind: 'go', address: GALLERY, tokenId: '858324' },
    ],
    ['the first digits', '0x6058', { kind: 'go', address: GALLERY }],
    ['the first digits with its zero', '0x06058', { kind: 'go', address: GALLERY }],
    ['a name', 'starkverse gallery', { kind: 'go', address: GALLERY }],
    [
      'a name and a token',
      'StarkVerse Gallery #858324',
      { kind: 'go', address: GALLERY, tokenId: '858324' },
    ],
    ['a symbol', 'frpi', { kind: 'go', address: PILOTS }],
    ['part of a name', 'verse', { kind: 'go', address: GALLERY }],
  ])('%s', (_what, input, expected) => {
    expect(resolveLookup(input, known)).toEqual(expected);
  });

  it('lets the reader choose when several contracts fit', () => {
    expect(resolveLookup('Frozen', known)).toEqual({
      kind: 'choose',
      matches: [PILOTS, FOXES].map((a) => contracts.find((c) => c.address === a)),
    });
    expect(resolveLookup('0x5a4d…1194', known)).toMatchObject({ kind: 'go', address: PILOTS });
  });

  it('tells a wallet or a transaction from a contract', () => {
    expect(resolveLookup(WALLET, known)).toEqual({ kind: 'not-listed', address: WALLET });
    expect(resolveLookup(`${WALLET} 5`, known)).toEqual({
      kind: 'not-listed',
      address: WALLET,
      tokenId: '5',
    });
  });

  it('says what an address that is no listed contract may be, and that a wallet has its page', () => {
    expect(notListedText(known)).toBe(
      'is none of the 3 token contracts the service lists: it may be a wallet or a transaction. A wallet’s page shows its collections and its events from the index.',
    );
    expect(notListedText({ contracts, complete: false })).toMatch(
      /^is none of the 3 token contracts loaded so far: /,
    );
  });

  it('opens a link to a wallet’s page as that wallet', () => {
    const short = WALLET.replace(/^0x0+/, '0x').toUpperCase().replace('0X', '0x');
    expect(
      resolveLookup(`https://dash.example/addresses/${short}?collection=${GALLERY}`, known),
    ).toEqual({
      kind: 'wallet',
      address: WALLET,
    });
    expect(resolveLookup('/addresses/0xzz', known)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/An address is 0x/),
    });
  });

  it('goes to any address when the contract list could not be read', () => {
    expect(resolveLookup(WALLET, { contracts: [], complete: false })).toEqual({
      kind: 'go',
      address: WALLET,
    });
  });

  it.each([
    ['', /Paste a contract address, optionally followed by a token id, a wallet address, /],
    ['hello', /No collection named “hello” among the 3 contracts\./],
    ['0x1234…9999', /No contract matches 0x1234…9999: paste its whole address/],
    ['0xzz', /An address is 0x/],
    [`${GALLERY} twelve`, /token id/],
  ])('explains %j', (input, message) => {
    const result = resolveLookup(input, known);
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.message).toMatch(message);
  });

  it('says when only part of the contract list is loaded', () => {
    const partial = { contracts, complete: false };
    expect(resolveLookup('0x1234…9999', partial)).toMatchObject({
      message: expect.stringMatching(/No loaded contract matches/),
    });
  });
});

describe('the lookup on a collection’s page', () => {
  it.each([
    ['a token id alone', '858324', { kind: 'go', address: FOXES, tokenId: '858324' }],
    ['a token id after #', '#12', { kind: 'go', address: FOXES, tokenId: '12' }],
    ['a hex token id after #', '# 0x0c', { kind: 'go', address: FOXES, tokenId: '12' }],
    // Everything else means what it means on any page.
    ['another contract', 'StarkVerse Gallery 5', { kind: 'go', address: GALLERY, tokenId: '5' }],
    ['a short form', '0x6058', { kind: 'go', address: GALLERY }],
  ])('opens %s', (_what, input, expected) => {
    expect(resolveLookup(input, known, FOXES)).toEqual(expected);
  });

  it('says a token id is too large rather than not a number', () => {
    const result = resolveLookup('9'.repeat(90), known, FOXES);
    expect(result).toEqual({ kind: 'error', message: expect.stringMatching(/too large/) });
    expect(result.kind === 'error' && result.message).toMatch(/below 2\^256, at most 78 decimal/);
    // 2^256 itself, in 78 digits.
    expect(resolveLookup((1n << 256n).toString(), known, FOXES)).toMatchObject({
      message: expect.stringMatching(/too large/),
    });
    expect(resolveLookup(((1n << 256n) - 1n).toString(), known, FOXES)).toMatchObject({
      kind: 'go',
    });
  });

  it('says a token id alone needs a collection on other pages', () => {
    expect(resolveLookup('12', known)).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^A token id alone needs its collection/),
    });
    expect(resolveLookup('9'.repeat(90), known)).toMatchObject({
      message: expect.stringMatching(/too large/),
    });
    for (const input of [`${GALLERY} ${'9'.repeat(90)}`, `StarkVerse Gallery ${'9'.repeat(90)}`]) {
      expect(resolveLookup(input, known)).toMatchObject({
        message: expect.stringMatching(/too large/),
      });
    }
  });
});

describe('explorer links', () => {
  const short = GALLERY.replace(/^0x0+/, '0x');
  it.each([
    [
      'a Voyager contract',
      `https://voyager.online/contract/${short}`,
      { kind: 'go', address: GALLERY },
    ],
    [
      'a Voyager NFT',
      `https://voyager.online/nft/${short}/858324`,
      { kind: 'go', address: GALLERY, tokenId: '858324' },
    ],
    [
      'a Voyager collection',
      `https://voyager.online/nft-contract/${short}#items`,
      { kind: 'go', address: GALLERY },
    ],
    [
      'a Starkscan contract',
      `https://starkscan.co/contract/${GALLERY}`,
      { kind: 'go', address: GALLERY },
    ],
    [
      'a Starkscan NFT with a hex id',
      `https://starkscan.co/nft/${GALLERY}/0x0c?tab=activity`,
      { kind: 'go', address: GALLERY, tokenId: '12' },
    ],
    [
      'a Sepolia Voyager NFT',
      `https://sepolia.voyager.online/nft/${short}/7`,
      { kind: 'go', address: GALLERY, tokenId: '7' },
    ],
    [
      'a Sepolia Starkscan contract',
      `sepolia.starkscan.co/contract/${short}`,
      { kind: 'go', address: GALLERY },
    ],
    // A contract page of the explorer may be a wallet's: as if its address were pasted.
    [
      'a wallet’s explorer page',
      `https://voyager.online/contract/${WALLET}`,
      { kind: 'not-listed', address: WALLET },
    ],
    // A collection the list does not hold: the explorer says it is one, so it opens.
    [
      'an unlisted collection',
      `https://voyager.online/nft-contract/${WALLET}`,
      { kind: 'go', address: WALLET },
    ],
  ])('opens %s', (_what, input, expected) => {
    expect(resolveLookup(input, known)).toEqual(expected);
  });

  it('looks a transaction’s hash up, and says what is no explorer page it opens', () => {
    for (const link of [
      `https://voyager.online/tx/${WALLET}`,
      `https://sepolia.starkscan.co/tx/${WALLET}`,
    ]) {
      expect(resolveLookup(link, known, FOXES)).toEqual({ kind: 'not-listed', address: WALLET });
    }
    expect(resolveLookup('https://voyager.online/tx/0xzz', known)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/An address is 0x/),
    });
    expect(resolveLookup(`https://voyager.online/block/123`, known)).toMatchObject({
      message: expect.stringMatching(/not its \/block\/ pages/),
    });
    expect(resolveLookup('https://voyager.online/contract/0xzz', known)).toMatchObject({
      message: expect.stringMatching(/An address is 0x/),
    });
  });
});

describe('short forms of addresses', () => {
  it('match their two ends, or the first digits with or without zeros', () => {
    expect(addressMatcher('0x6058…44b8')?.(GALLERY)).toBe(true);
    expect(addressMatcher('0x6058…44b9')?.(GALLERY)).toBe(false);
    expect(addressMatcher('0x06058')?.(GALLERY)).toBe(true);
    expect(addressMatcher('0x6058')?.(GALLERY)).toBe(true);
    expect(addressMatcher('0x44b8')?.(GALLERY)).toBe(false);
    expect(addressMatcher('StarkVerse')).toBeNull();
  });

  it('the sender filter takes a short form only when one loaded address has it', () => {
    const loaded = [GALLERY, WALLET, PILOTS];
    expect(resolveAddress('0x7b84…7481', loaded)).toEqual({ ok: true, value: WALLET });
    expect(resolveAddress('0x7B84', loaded)).toEqual({ ok: true, value: WALLET });
    expect(resolveAddress(WALLET.replace(/^0x0+/, '0x'), [])).toEqual({ ok: true, value: WALLET });
    // Never padded into an address nobody has.
    expect(resolveAddress('0x7b85', loaded)).toEqual({
      ok: false,
      error: expect.stringMatching(/No loaded event has an address like 0x7b85/),
    });
    expect(resolveAddress('0x', loaded)).toMatchObject({ ok: false });
    expect(resolveAddress('0x5', [A('51'), A('52')])).toEqual({
      ok: false,
      error: expect.stringMatching(/fits 2 addresses/),
    });
    expect(resolveAddress('not an address', loaded)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/An address is 0x/),
    });
  });
});

describe('parseLookup', () => {
  it.each([
    ['0xabc', { address: A('abc') }],
    ['  0xABC  ', { address: A('abc') }],
    ['0xabc 12', { address: A('abc'), tokenId: '12' }],
    ['0xabc/0x0c', { address: A('abc'), tokenId: '12' }],
    ['0xabc:12', { address: A('abc'), tokenId: '12' }],
    [
      `https://dash.example/contracts/${A('abc')}/tokens/12?x=1`,
      { address: A('abc'), tokenId: '12' },
    ],
  ])('%s', (input, expected) => {
    expect(parseLookup(input)).toEqual({ ok: true, value: expected });
  });

  it.each(['', 'hello', '0xabc 12 13', '0xabc -1', '0xabc 1.5'])('refuses %j', (input) => {
    const parsed = parseLookup(input);
    expect(parsed.ok).toBe(false);
  });
});
