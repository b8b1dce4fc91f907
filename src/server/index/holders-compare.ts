import type pg from 'pg';
import type {
  HolderChange,
  HolderChangeKind,
  HoldersCompareAnswer,
  MomentFigures,
  ViewFigures,
  Volume,
} from '../../lib/answers';
import { holderCountsAt } from './holder-moments';
import { countsInOrder, holdersFigures } from './holders';
import type { KeysetValues } from './keyset';
import { viewFigures } from './view-figures';
import { HOUR } from '../../lib/utc';

/**
 * A collection at two moments: who joined its holders, who left, who grew or shrank, and
 * its figures at each (holders, the top ten's share, activity up to then). Each moment
 * counts every change of hands at or before it, as holders as of a moment do (each
 * moment's counts from the nearest kept one, `holder-moments.ts`).
 */

/** A holder's change from one count to the other; null when it stayed the same. */
export function changeOf(from: number, to: number): HolderChangeKind | null {
  if (from === to) return null;
  if (from === 0) return 'joined';
  if (to === 0) return 'left';
  return to > from ? 'grew' : 'shrank';
}

/** Largest change first, then by address (descending): one order for pages and the file. */
const before = (a: HolderChange, b: HolderChange) =>
  Math.abs(b.to - b.from) - Math.abs(a.to - a.from) ||
  (a.owner > b.owner ? -1 : a.owner < b.owner ? 1 : 0);

export interface HoldersComparison {
  figures: { from: MomentFigures; to: MomentFigures };
  changed: HoldersCompareAnswer['changed'];
  /** Every holder whose count changed, in the answer's order. */
  changes: HolderChange[];
}

/** The comparison of the holders at `from` and at `to` (from ≤ to). */
export async function compareHolders(
  pool: pg.Pool,
  contractId: number,
  from: number,
  to: number,
  /** Where a moment worked out may be kept (the primary); none: nothing is written. */
  keepIn?: pg.Pool,
): Promise<HoldersComparison> {
  const [countsA, countsB, activityA, activityB] = await Promise.all([
    holderCountsAt(pool, contractId, from, keepIn),
    holderCountsAt(pool, contractId, to, keepIn),
    activityUpTo(pool, contractId, from),
    activityUpTo(pool, contractId, to),
  ]);
  const a = { owners: countsInOrder(countsA), burned: countsA.burned };
  const b = { owners: countsInOrder(countsB), burned: countsB.burned };
  const counts = new Map<string, { from: number; to: number }>();
  for (const holder of a.owners) counts.set(holder.owner, { from: holder.tokens, to: 0 });
  for (const holder of b.owners) {
    const entry = counts.get(holder.owner) ?? { from: 0, to: 0 };
    entry.to = holder.tokens;
    counts.set(holder.owner, entry);
  }
  const changed = { joined: 0, left: 0, grew: 0, shrank: 0, stayed: 0 };
  const changes: HolderChange[] = [];
  for (const [owner, count] of counts) {
    const change = changeOf(count.from, count.to);
    if (change === null) {
      changed.stayed += 1;
      continue;
    }
    changed[change] += 1;
    changes.push({ owner, ...count, change });
  }
  return {
    figures: {
      from: { ...holdersFigures(a.owners, a.burned), activity: activityA },
      to: { ...holdersFigures(b.owners, b.burned), activity: activityB },
    },
    changed,
    changes: changes.sort(before),
  };
}

/** A page of the changes (of one kind, when asked), after the cursor's row. */
export function changesPage(
  changes: HolderChange[],
  options: { limit: number; after: KeysetValues | null; change?: HolderChangeKind },
): { changes: HolderChange[]; next: KeysetValues | null } {
  const kept = options.change ? changes.filter((c) => c.change === options.change) : changes;
  let start = 0;
  if (options.after) {
    const [delta, owner] = options.after as [number, string];
    const cursor = { owner: `0x${owner}`, from: 0, to: delta, change: 'grew' as const };
    start = kept.findIndex((row) => before(cursor, row) < 0);
    if (start < 0) start = kept.length;
  }
  const page = kept.slice(start, start + options.limit);
  const last = page.at(-1);
  return {
    changes: page,
    next:
      start + options.limit < kept.length && last
        ? [Math.abs(last.to - last.from), last.owner.slice(2)]
        : null,
  };
}

/**
 * The activity of every change of hands at or before a moment: whole hours from the
 * hourly rollup, the moment's own hour from the rows (as the view's figures read them).
 */
async function activityUpTo(pool: pg.Pool, contractId: number, moment: number) {
  const end = moment + 1;
  const hour = Math.floor(end / HOUR) * HOUR;
  const [hours, rest] = await Promise.all([
    viewFigures(pool, contractId, { to: hour }),
    hour === end ? null : viewFigures(pool, contractId, { from: hour, to: end }),
  ]);
  return rest ? sumFigures(hours, rest) : hours;
}

function sumVolumes(a: Volume[], b: Volume[]): Volume[] {
  const byCurrency = new Map<string, Volume>();
  for (const entry of [...a, ...b]) {
    const known = byCurrency.get(entry.currency.address);
    byCurrency.set(
      entry.currency.address,
      known
        ? {
            ...known,
            sales: known.sales + entry.sales,
            volume: (BigInt(known.volume) + BigInt(entry.volume)).toString(),
          }
        : entry,
    );
  }
  return [...byCurrency.values()].sort((x, y) => y.sales - x.sales);
}

function sumFigures(a: ViewFigures, b: ViewFigures): ViewFigures {
  const counts = { ...a.counts };
  for (const [kind, count] of Object.entries(b.counts))
    counts[kind as keyof typeof counts] += count;
  return {
    events: a.events + b.events,
    counts,
    sales: a.sales + b.sales,
    priced: a.priced + b.priced,
    volume: sumVolumes(a.volume, b.volume),
    washSales: a.washSales + b.washSales,
    washVolume: sumVolumes(a.washVolume, b.washVolume),
  };
}
