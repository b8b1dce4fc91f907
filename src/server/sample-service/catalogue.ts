import { createRandom, fieldElementHex, hash32, type Random } from './random';
import { patternPng } from './pattern-png';
import { DAY } from '../../lib/utc';

/**
 * The cast of the sample data: contracts (a few fixed ones every dataset needs, the rest
 * generated), marketplaces and currencies. The activity itself is simulated in dataset.ts.
 */

export type ContractType = 'ERC721' | 'ERC1155';

/** How a contract numbers its tokens: small sequential ids up to full 256-bit ones. */
export type TokenIdStyle =
  { kind: 'sequential'; first: bigint } | { kind: 'random'; bits: 64 | 256 };

/**
 * Where a contract stands in the activity ranking: the two busiest places are taken by the
 * real examples, so every dataset has deep lists where tests and benchmarks expect them;
 * `idle` contracts get no events at all.
 */
export type ActivityRole = 'busiest' | 'second' | 'any' | 'idle';

export interface ContractDraft {
  address: string;
  type: ContractType;
  name: string;
  symbol: string;
  image: string;
  /**
   * Whether the indexer registered the image: the deployed service sends `""` for most
   * contracts; the documented profile shows every image.
   */
  imageRegistered: boolean;
  indexedAt: number;
  tokenIds: TokenIdStyle;
  role: ActivityRole;
  /** A mint that must exist, at its exact time: the real example from the service's docs. */
  forcedMint?: { tokenId: bigint; timestamp: number };
}

export interface Marketplace {
  name: string;
  address: string;
  /** Element always names the currency; Ventory never does (and always sells one copy). */
  reportsCurrency: boolean;
}

/** A currency a marketplace sells in: its token contract, and how many decimals its units have. */
export interface Currency {
  /** null for a token contract the dashboard does not know. */
  symbol: 'ETH' | 'STRK' | 'USDC' | null;
  decimals: number;
  address: string;
}

/**
 * Two years of activity ending at a fixed date: the timeline at the fixed anchor. A dataset
 * with another anchor shifts every time by `anchor - TIMELINE.end`.
 */
export const TIMELINE = { start: 1_751_241_600 - 730 * DAY, end: 1_751_241_600 } as const;

/** The indexer's v0.57.13 (October 2024) began writing prices as `0x` + 64 hex digits. */
export const HEX_PRICES_SINCE = 1_727_740_800;

export const STARKNET_QUEST_ADDRESS =
  '0x076503062d78f4481be03c9145022d6a4a71ec0719aa07756f79a2384dc7ef16';
export const STARKVERSE_GALLERY_ADDRESS =
  '0x060582df2cd4ad2c988b11fdede5c43f56a432e895df255ccd1af129160044b8';
export const STARKVERSE_EXAMPLE_MINT = { tokenId: 856_292n, timestamp: 1_706_896_016 } as const;

export const HOSTILE_CONTRACT_NAME = `<img src=x onerror="alert('xss')">Evil`;
export const BROKEN_IMAGE_URL = 'https://images.invalid/missing.png';

/** Starknet mainnet's token contracts (src/server/upstream/README.md, how the real service behaves). */
export const CURRENCIES = {
  ETH: {
    symbol: 'ETH',
    decimals: 18,
    address: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
  },
  STRK: {
    symbol: 'STRK',
    decimals: 18,
    address: '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
  },
  USDC: {
    symbol: 'USDC',
    decimals: 6,
    address: '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8',
  },
} as const satisfies Record<string, Currency>;

const marketplace = (index: number, name: string, reportsCurrency: boolean): Marketplace => ({
  name,
  address: fieldElementHex(0x6d61726b, index),
  reportsCurrency,
});

/** The two marketplaces the real service indexes. */
export const ELEMENT = marketplace(0, 'Element', true);
export const VENTORY = marketplace(1, 'Ventory', false);

// prettier-ignore
const ADJECTIVES = [
  'Cosmic', 'Lunar', 'Neon', 'Pixel', 'Quantum', 'Golden', 'Silent', 'Electric', 'Ancient',
  'Crystal', 'Shadow', 'Solar', 'Velvet', 'Frozen', 'Wild', 'Hidden', 'Cyber', 'Mystic',
  'Rogue', 'Royal', 'Iron', 'Astral', 'Paper', 'Cairo',
];
// prettier-ignore
const NOUNS = [
  'Otters', 'Knights', 'Realms', 'Punks', 'Foxes', 'Dragons', 'Voyagers', 'Badges', 'Gardens',
  'Legends', 'Beasts', 'Ducks', 'Robots', 'Wizards', 'Pilots', 'Lands', 'Cats', 'Heroes',
  'Apes', 'Spirits', 'Titans', 'Tickets', 'Passes', 'Lanterns',
];
const TOKEN_ID_STYLES: readonly TokenIdStyle[] = [
  { kind: 'sequential', first: 1n },
  { kind: 'sequential', first: 10_000n },
  { kind: 'random', bits: 64 },
  { kind: 'random', bits: 256 },
];

/**
 * The fixed contracts, in the order they are kept when fewer contracts are asked for.
 * The two real ones keep their real addresses whatever the seed.
 */
function fixedContracts(seed: number): Omit<ContractDraft, 'indexedAt' | 'imageRegistered'>[] {
  const address = (n: number): string => fieldElementHex(seed, 0xc0, n);
  return [
    {
      address: STARKNET_QUEST_ADDRESS,
      type: 'ERC721',
      name: 'Starknet Quest',
      symbol: 'SKQ',
      // The real image is https://starknet.quest/starkfighter/level1.webp; inline keeps tests offline.
      image: patternImage('Starknet Quest', 0),
      tokenIds: { kind: 'sequential', first: 1n },
      role: 'second',
    },
    {
      address: STARKVERSE_GALLERY_ADDRESS,
      type: 'ERC721',
      name: 'StarkVerse Gallery',
      symbol: 'SVG',
      image: patternImage('StarkVerse Gallery', 1),
      tokenIds: { kind: 'sequential', first: 850_000n },
      role: 'busiest',
      forcedMint: { ...STARKVERSE_EXAMPLE_MINT },
    },
    {
      address: address(2),
      type: 'ERC721',
      name: 'Untitled Collection',
      symbol: '',
      image: '',
      tokenIds: { kind: 'sequential', first: 1n },
      role: 'idle',
    },
    {
      address: address(3),
      type: 'ERC1155',
      name: 'Pixel Relics',
      symbol: 'RELIC',
      image: `ipfs://${ipfsCid(seed)}/1.png`,
      tokenIds: { kind: 'sequential', first: 1n },
      role: 'any',
    },
    {
      address: address(4),
      type: 'ERC721',
      name: 'Lost Canvases',
      symbol: 'LOST',
      image: BROKEN_IMAGE_URL,
      tokenIds: { kind: 'random', bits: 64 },
      role: 'idle',
    },
    {
      address: address(5),
      type: 'ERC721',
      name: HOSTILE_CONTRACT_NAME,
      symbol: 'EVIL',
      image: 'javascript:alert(1)',
      tokenIds: { kind: 'random', bits: 256 },
      role: 'any',
    },
  ];
}

/** `count` contract drafts, oldest-indexed first. */
export function draftContracts(seed: number, count: number): ContractDraft[] {
  const random = createRandom(seed, 0xca7a);
  const drafts: Omit<ContractDraft, 'indexedAt'>[] = fixedContracts(seed)
    .slice(0, count)
    .map((draft) => ({ ...draft, imageRegistered: true }));
  const names = new Set(drafts.map((draft) => draft.name));
  for (let index = drafts.length; index < count; index += 1) {
    let name = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
    if (names.has(name)) name = `${name} ${index}`;
    names.add(name);
    const [first = '', second = ''] = name.split(' ');
    drafts.push({
      address: fieldElementHex(seed, 0xc0, index),
      type: random.chance(0.3) ? 'ERC1155' : 'ERC721',
      name,
      symbol: (first.slice(0, 2) + second.slice(0, 2)).toUpperCase(),
      image: patternImage(name, index),
      // A hash, not the generator: the draws below stay as they were.
      imageRegistered: hash32(seed, 0x1a6e, index) % 5 === 0,
      tokenIds: random.pick(TOKEN_ID_STYLES),
      role: 'any',
    });
  }
  const latestIndexing = TIMELINE.start + Math.floor((TIMELINE.end - TIMELINE.start) * 0.75);
  return drafts
    .map((draft) => {
      let indexedAt = TIMELINE.start + random.int(latestIndexing - TIMELINE.start);
      // The example mint must fall inside the contract's active life.
      if (draft.forcedMint) indexedAt = Math.min(indexedAt, draft.forcedMint.timestamp - 30 * DAY);
      // Once a chain id was drawn here; the draw stays so that every seed keeps its data.
      random.float();
      return { ...draft, indexedAt };
    })
    .sort((a, b) => a.indexedAt - b.indexedAt || (a.address < b.address ? -1 : 1));
}

/**
 * The drafts' indexes, busiest-to-be first: the `busiest`, the `second`, then the others
 * shuffled; idle ones left out.
 */
export function rankedByRole(random: Random, drafts: readonly ContractDraft[]): number[] {
  const place = (role: ActivityRole): number[] =>
    drafts.flatMap((draft, index) => (draft.role === role ? [index] : []));
  const others = place('any');
  for (let n = others.length - 1; n > 0; n -= 1) {
    const m = random.int(n + 1);
    [others[n], others[m]] = [others[m] ?? 0, others[n] ?? 0];
  }
  return [...place('busiest'), ...place('second'), ...others];
}

/** A small inline picture from the collection's name, so no image needs the network. */
function patternImage(name: string, ordinal: number): string {
  let bits = 0;
  for (const char of name) bits = (Math.imul(bits, 31) + char.charCodeAt(0)) >>> 0;
  return patternPng(bits & 0x7fff, Math.round((ordinal * 137.508) % 360));
}

/** A CIDv1-shaped string (`bafy…`, base32), as IPFS-hosted collections have. */
function ipfsCid(seed: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let cid = 'bafybei';
  for (let n = 0; n < 52; n += 1) cid += alphabet[hash32(seed, 0x1bf5, n) % 32];
  return cid;
}
