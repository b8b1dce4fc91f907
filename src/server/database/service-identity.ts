import type pg from 'pg';
import type { UpstreamConfig } from '../config';
import { startAnchor } from '../sample-service/dataset';
import { withClient } from './held-client';

/**
 * A database holds one service's data (`log_source`, migration 6): records and index rows
 * of two services mixed would be answers about neither. The first start claims it; later
 * starts must name the same service.
 */
export interface ServiceIdentity {
  /** Compared between starts: the real service's base URL, or the sample's profile and seed. */
  service: string;
  /** For people: the log and the refusal. */
  description: string;
  /** The sample service's anchor is part of what it is, kept beside the name. */
  sample: boolean;
}

export function serviceIdentity(upstream: UpstreamConfig): ServiceIdentity {
  if (upstream.kind === 'sample') {
    const { profile, seed } = upstream;
    return {
      service: `sample:${profile}:seed=${seed}`,
      description: `the embedded sample service (${profile} profile, seed ${seed})`,
      sample: true,
    };
  }
  // Built from its parts, so neither credentials nor a query (where a key could hide) is
  // ever kept; URL lowercases the scheme and host and drops a default port.
  const url = new URL(upstream.url);
  const service = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  return { service, description: `the Token Events Service at ${service}`, sample: false };
}

/**
 * Claims the database for `identity`, or finds it claimed by the same service; returns the
 * sample's anchor to use: the one stored, so that without SAMPLE_ANCHOR a restart an hour
 * later keeps the timeline the stored records were read from. Another service, or an
 * explicit anchor other than the stored one, is refused with one line saying how to go on.
 */
export async function claimService(
  pool: pg.Pool,
  identity: ServiceIdentity,
  { anchor, log }: { anchor?: number; log?: (line: string) => void } = {},
): Promise<number | undefined> {
  const { stored, claimed, adopted } = await withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      // Servers starting together on a shared database: one claims, the others then read it.
      await client.query('LOCK TABLE log_source IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<{
        service: string;
        description: string;
        sample_anchor: string | null;
      }>('SELECT service, description, sample_anchor FROM log_source');
      const stored = rows[0];
      if (stored) {
        await client.query('COMMIT');
        return { stored, claimed: undefined, adopted: false };
      }
      const claimed = identity.sample ? (anchor ?? startAnchor()) : undefined;
      const { rows: earlier } = await client.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM log_lists) OR EXISTS (SELECT 1 FROM log_records)
             OR EXISTS (SELECT 1 FROM idx_contracts) AS found`,
      );
      await client.query(
        'INSERT INTO log_source (service, description, sample_anchor) VALUES ($1, $2, $3)',
        [identity.service, identity.description, claimed ?? null],
      );
      await client.query('COMMIT');
      return { stored, claimed, adopted: earlier[0]!.found };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
  if (!stored) {
    // A data folder from before this version: which service filled it was never recorded,
    // and refusing it would strand its data; it is said in the log instead.
    if (adopted) {
      log?.(
        `The database holds data from before services were recorded: it is taken to come ` +
          `from ${named(identity.description, claimed)}.`,
      );
    }
    return claimed;
  }
  const storedAnchor = stored.sample_anchor === null ? undefined : Number(stored.sample_anchor);
  if (stored.service !== identity.service || (anchor !== undefined && anchor !== storedAnchor)) {
    throw new Error(
      `this database holds data from ${named(stored.description, storedAnchor)}, ` +
        `not from ${named(identity.description, anchor)}: use another DATA_DIR ` +
        '(or DATABASE_URL), or empty this one with `npm run index -- --reset`',
    );
  }
  return storedAnchor;
}

/** The upstream configuration with the anchor the database was claimed with. */
export async function claimUpstream(
  pool: pg.Pool,
  upstream: UpstreamConfig,
  log?: (line: string) => void,
): Promise<UpstreamConfig> {
  const sample = upstream.kind === 'sample';
  const anchor = await claimService(pool, serviceIdentity(upstream), {
    anchor: sample ? upstream.anchor : undefined,
    log,
  });
  return sample ? { ...upstream, anchor } : upstream;
}

const named = (description: string, anchor: number | undefined) =>
  anchor === undefined ? description : `${description} with SAMPLE_ANCHOR=${anchor}`;
