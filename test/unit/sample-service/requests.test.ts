import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, ZERO_ADDRESS } from '../../../src/lib/address';
import { canonicalTokenId, tokenIdToDecimal, tokenIdToHex } from '../../../src/lib/token-id';
import {
  createSampleService,
  HOSTILE_CONTRACT_NAME,
  PROFILES,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  type Profile,
} from '../../../src/server/sample-service';
import {
  API_KEY,
  dataset,
  eventsPath,
  get,
  services,
  SMALL,
  walk,
  withoutCursor,
  type Json,
} from './helpers';

const data = dataset(SMALL);
const byProfile = services(data);
const profile = fc.constantFrom(...PROFILES);
const anyToken = fc.integer({ min: 0, max: data.tokenCount - 1 }).map((index) => data.token(index));

/** What each profile answers to a bad parameter. */
function expectBadParameter(
  name: Profile,
  { status, text }: { status: number; text: string },
): void {
  if (name === 'deployed') {
    expect({ status, body: JSON.parse(text) }).toEqual({
      status: 502,
      body: { message: 'Internal server error' },
    });
  } else {
    expect(status).toBe(400);
    expect((JSON.parse(text) as Json).message).toMatch(/\w/);
  }
}

describe('token ids and addresses', () => {
  it('answers the same for a token id in decimal and in hex', async () => {
    await fc.assert(
      fc.asyncProperty(profile, anyToken, async (name, token) => {
        const spellings = [
          tokenIdToDecimal(token.id),
          tokenIdToHex(token.id),
          `0x${token.id.toString(16)}`,
          `0x${token.id.toString(16).toUpperCase()}`,
        ];
        // Deployed cursors differ for every page served: the rest must be the same.
        const bodies = await Promise.all(
          spellings.map(async (id) =>
            JSON.stringify(
              withoutCursor(
                (await get(byProfile[name], eventsPath(token.contract.address, id))).text,
              ),
            ),
          ),
        );
        expect(new Set(bodies).size).toBe(1);
        expect(JSON.parse(bodies[0] ?? '')).toHaveProperty('result');
      }),
      { numRuns: 40 },
    );
  });

  it('normalises short and upper-case addresses', async () => {
    await fc.assert(
      fc.asyncProperty(profile, anyToken, async (name, token) => {
        const address = token.contract.address;
        const digits = address.slice(2);
        const spellings = [
          address,
          `0x${digits.toUpperCase()}`,
          `0x${digits.replace(/^0+/, '')}`,
          `0X${digits}`,
        ];
        for (const path of [
          (spelling: string) => eventsPath(spelling),
          (spelling: string) => eventsPath(spelling, tokenIdToDecimal(token.id)),
        ]) {
          const bodies = await Promise.all(
            spellings.map(async (spelling) =>
              JSON.stringify(withoutCursor((await get(byProfile[name], path(spelling))).text)),
            ),
          );
          expect(new Set(bodies).size).toBe(1);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('answers 200 with no events for an unknown contract or token', async () => {
    const known = data.contracts.find((contract) => contract.eventCount > 0)?.address ?? '';
    const paths = [
      eventsPath('0x1234'),
      eventsPath('0x1234', '1'),
      eventsPath(known, tokenIdToHex(1n << 255n)),
    ];
    for (const path of paths) {
      expect(await get(byProfile.documented, path)).toMatchObject({
        status: 200,
        text: '{"result":[],"cursor":null}',
      });
      expect(await get(byProfile.deployed, path)).toMatchObject({
        status: 200,
        text: '{"result":[]}',
      });
    }
  });

  it('serves the documented StarkVerse Gallery mint', async () => {
    const path = eventsPath(STARKVERSE_GALLERY_ADDRESS, String(STARKVERSE_EXAMPLE_MINT.tokenId));
    for (const name of PROFILES) {
      const { items } = await walk(byProfile[name], path);
      const mint = items.find((item) => item.from_address === ZERO_ADDRESS);
      expect(mint).toMatchObject({
        contract_address: STARKVERSE_GALLERY_ADDRESS,
        event_type: name === 'documented' ? 'mint' : 'transfer',
        timestamp: name === 'documented' ? 1706896016 : '1706896016',
        token_id: '856292',
        token_id_hex: `0x${'0'.repeat(58)}0d10e4`,
      });
    }
  });
});

describe('bad parameters', () => {
  const badText = (valid: (text: string) => boolean) =>
    fc
      .string({ unit: fc.constantFrom(...'0123456789abcdefxXgz-_'), minLength: 1, maxLength: 80 })
      .filter((text) => !valid(text));

  it('rejects a bad contract address', async () => {
    const address = fc.oneof(
      badText((text) => canonicalAddress(text) !== null),
      fc.constant(`0x${'1'.repeat(65)}`),
    );
    await fc.assert(
      fc.asyncProperty(profile, address, async (name, bad) => {
        for (const path of [eventsPath(bad), eventsPath(bad, '1')]) {
          expectBadParameter(name, await get(byProfile[name], path));
        }
      }),
      { numRuns: 50 },
    );
  });

  it('rejects a bad token id', async () => {
    const tokenId = fc.oneof(
      badText((text) => canonicalTokenId(text) !== null),
      fc.constant(String(1n << 256n)),
    );
    await fc.assert(
      fc.asyncProperty(profile, tokenId, async (name, bad) => {
        expectBadParameter(
          name,
          await get(byProfile[name], eventsPath(STARKVERSE_GALLERY_ADDRESS, bad)),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('rejects an edited cursor', async () => {
    const path = '/v1/contracts';
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.nat(),
        fc.constantFrom(...'0123456789abcdefABCXYZ-_'),
        async (name, place, replacement) => {
          const first = JSON.parse((await get(byProfile[name], `${path}?limit=1`)).text) as Json;
          const cursor = String(first.cursor);
          const index = place % cursor.length;
          fc.pre(cursor[index] !== replacement);
          const edited = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          expectBadParameter(
            name,
            await get(byProfile[name], `${path}?cursor=${encodeURIComponent(edited)}`),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects a cursor of another list', async () => {
    for (const name of PROFILES) {
      const first = JSON.parse((await get(byProfile[name], '/v1/contracts?limit=1')).text) as Json;
      const path = `${eventsPath(STARKVERSE_GALLERY_ADDRESS)}?cursor=${String(first.cursor)}`;
      expectBadParameter(name, await get(byProfile[name], path));
    }
  });

  it('rejects limit 0 or below in both profiles', async () => {
    await fc.assert(
      fc.asyncProperty(profile, fc.integer({ min: -1_000, max: 0 }), async (name, bad) => {
        expectBadParameter(name, await get(byProfile[name], `/v1/contracts?limit=${bad}`));
      }),
      { numRuns: 20 },
    );
  });

  it('falls back to 100 for an unparsable limit when deployed, and rejects it when documented', async () => {
    const many = services(dataset({ seed: 9, contracts: 150, events: 3_000 }));
    for (const limit of ['abc', '', 'x1']) {
      const { status, text } = await get(many.deployed, `/v1/contracts?limit=${limit}`);
      expect(status).toBe(200);
      expect((JSON.parse(text) as { result: unknown[] }).result.length).toBeLessThanOrEqual(100);
    }
    expect((await get(many.deployed, '/v1/contracts?limit=7abc')).status).toBe(200);
    expectBadParameter('documented', await get(many.documented, '/v1/contracts?limit=abc'));
  });
});

describe('keys and routes', () => {
  const dataPaths = [
    '/v1/contracts',
    eventsPath(STARKVERSE_GALLERY_ADDRESS),
    eventsPath(STARKVERSE_GALLERY_ADDRESS, '1'),
  ];

  it('answers 403 Forbidden without the right key', async () => {
    const key = fc.option(
      fc
        .string({ unit: fc.constantFrom(...'abcdefgtesky-_ 0123'), maxLength: 20 })
        .filter((text) => text.trim() !== API_KEY),
      { nil: null },
    );
    await fc.assert(
      fc.asyncProperty(profile, fc.constantFrom(...dataPaths), key, async (name, path, wrong) => {
        const { status, text } = await get(byProfile[name], path, wrong);
        expect({ status, body: JSON.parse(text) }).toEqual({
          status: 403,
          body: { message: 'Forbidden' },
        });
      }),
      { numRuns: 40 },
    );
  });

  it('answers unknown routes as each profile does', async () => {
    for (const path of ['/v1/nope', '/v2/contracts', '/v1/contracts/', '/', '/v1/events/0x1/2/3']) {
      for (const key of [API_KEY, null]) {
        expect(await get(byProfile.deployed, path, key)).toMatchObject({
          status: 403,
          text: '{"message":"Missing Authentication Token"}',
        });
        expect(await get(byProfile.documented, path, key)).toMatchObject({
          status: 404,
          text: '{"message":"Not Found"}',
        });
      }
    }
  });

  it('serves GET only', async () => {
    const response = await byProfile.documented.fetch('/v1/contracts', {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
    });
    expect(response.status).toBe(404);
  });

  it('refuses an empty key at creation', () => {
    expect(() => createSampleService({ apiKey: '', dataset: data })).toThrow();
  });
});

describe('profiles', () => {
  it('documented: numbers, mint/transfer/sale, cursor null at the end', async () => {
    const { items, pages } = await walk(
      byProfile.documented,
      eventsPath(STARKVERSE_GALLERY_ADDRESS),
      500,
    );
    expect(pages.at(-1)?.body).toHaveProperty('cursor', null);
    expect(new Set(items.map((item) => item.event_type))).toEqual(
      new Set(['mint', 'transfer', 'sale']),
    );
    const fields = [
      'contract_address',
      'contract_type',
      'event_id',
      'event_type',
      'from_address',
      'timestamp',
      'to_address',
      'token_id',
      'token_id_hex',
      'transaction_hash',
    ];
    for (const item of items) {
      expect(typeof item.timestamp).toBe('number');
      if (item.event_type !== 'sale') {
        expect(Object.keys(item).sort()).toEqual(fields);
        continue;
      }
      // A sale is one record with its price in decimal base units (and its currency, if any).
      expect(String(item.price)).toMatch(/^[1-9][0-9]*$/);
      const extra = item.currency_address === undefined ? ['price'] : ['currency_address', 'price'];
      expect(Object.keys(item).sort()).toEqual([...fields, ...extra].sort());
    }
    expect(items.some((item) => item.event_type === 'sale' && item.currency_address)).toBe(true);
    expect(items.some((item) => item.event_type === 'sale' && !item.currency_address)).toBe(true);
  });

  it('deployed: strings, mints and burns as transfers, sales of their own shape, empty pages', async () => {
    const { items, pages } = await walk(
      byProfile.deployed,
      eventsPath(STARKVERSE_GALLERY_ADDRESS),
      10,
    );
    expect(pages.at(-1)?.body).not.toHaveProperty('cursor');
    expect(pages.some((page) => page.count === 0 && page.hasCursor)).toBe(true);
    expect(pages.some((page) => page.count > 0 && page.count < 10 && page.hasCursor)).toBe(true);
    expect(new Set(items.map((item) => item.event_type))).toEqual(new Set(['transfer', 'sale']));
    for (const item of items) {
      for (const value of Object.values(item)) expect(typeof value).toBe('string');
      expect(item.block_number).toMatch(/^[1-9][0-9]*$/);
    }
    const sales = items.filter((item) => item.event_type === 'sale');
    for (const sale of sales) {
      expect(sale).toHaveProperty('nft_contract_address', STARKVERSE_GALLERY_ADDRESS);
      expect(sale).not.toHaveProperty('contract_address');
      expect(sale).not.toHaveProperty('contract_type');
      expect(sale.event_id).toBe(sale.token_id_hex);
      expect(sale.price).toMatch(/^([1-9][0-9]*|0x[0-9a-f]{64})$/);
      expect(sale.quantity).toMatch(/^[1-9][0-9]*$/);
      expect(sale.marketplace_contract_address).toMatch(/^0x[0-9a-f]{64}$/);
      // Element always names the currency, Ventory never does.
      expect(sale.marketplace_name === 'Element').toBe('currency_address' in sale);
      expect(['Element', 'Ventory']).toContain(sale.marketplace_name);
    }
    expect(sales.some((sale) => String(sale.price).startsWith('0x'))).toBe(true);
    expect(sales.some((sale) => !String(sale.price).startsWith('0x'))).toBe(true);
    expect(
      items.some((item) => item.from_address === ZERO_ADDRESS && item.event_type === 'transfer'),
    ).toBe(true);
  });

  it('deployed: contracts carry chain_id "", and most have no image', async () => {
    const many = dataset({ seed: 9, contracts: 150, events: 3_000 });
    const [documented, deployed] = await Promise.all(
      PROFILES.map(async (name) => (await walk(services(many)[name], '/v1/contracts')).items),
    );
    const imageOf = (items: Json[] | undefined, name: string) =>
      items?.find((contract) => contract.name === name)?.image;
    for (const contract of deployed ?? []) expect(contract.chain_id).toBe('');
    for (const contract of documented ?? []) expect(contract).not.toHaveProperty('chain_id');
    const empty = (deployed ?? []).filter((contract) => contract.image === '').length;
    expect(empty / many.contracts.length).toBeGreaterThan(0.6);
    expect(empty).toBeLessThan(many.contracts.length);
    // The fixed contracts keep their images: inline, ipfs, broken https and hostile ones.
    for (const name of ['Starknet Quest', 'Pixel Relics', 'Lost Canvases', HOSTILE_CONTRACT_NAME]) {
      expect(imageOf(deployed, name)).toBe(imageOf(documented, name));
      expect(imageOf(deployed, name)).not.toBe('');
    }
    // The documented profile keeps every image.
    expect((documented ?? []).filter((contract) => contract.image === '')).toHaveLength(1);
  });

  it('deployed: cursors are UUIDs; a replayed one serves the same page with a new cursor', async () => {
    const first = JSON.parse((await get(byProfile.deployed, '/v1/contracts?limit=2')).text) as Json;
    expect(first.cursor).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const path = `/v1/contracts?limit=2&cursor=${String(first.cursor)}`;
    const [once, again] = [
      await get(byProfile.deployed, path),
      await get(byProfile.deployed, path),
    ];
    expect(withoutCursor(once.text)).toEqual(withoutCursor(again.text));
    expect((JSON.parse(once.text) as Json).cursor).not.toBe(
      (JSON.parse(again.text) as Json).cursor,
    );
  });
});
