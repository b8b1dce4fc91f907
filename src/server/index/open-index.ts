import { openRecordLog, type RecordLogOptions } from '../log/record-log';
import { noticeChanges } from './change-notice';
import { createIngest, type Ingest } from './ingest';
import { parseListPath } from './list-path';
import { rebuildContract } from './rebuild';

/**
 * The record log with the index fed by its commits: every page the log keeps becomes
 * index rows in the same transaction.
 */
export async function openIndexedLog(options: Omit<RecordLogOptions, 'onCommit'>) {
  // Ingest needs the log's pool, which exists once the log does; nothing commits before.
  const fed: { ingest?: Ingest } = {};
  const log = await openRecordLog({
    ...options,
    onCommit: async (client, path, texts, state, changed) => {
      await fed.ingest?.onCommit(client, path, texts, state);
      const target = parseListPath(path);
      // Live pages hear of the new rows once they are committed (change-notice.ts).
      if (target && target.kind !== 'contracts' && texts.length > 0) {
        await noticeChanges(client, target.contract);
      }
      // Records the service sent changed, or no longer lists: the contract's index is made
      // again from the log, in the same transaction (ingest only ever adds).
      if (changed && target && target.kind !== 'contracts') {
        await rebuildContract(client, target.contract);
      }
    },
  });
  fed.ingest = createIngest(log.pool);
  return log;
}
