import { openRecordLog, type RecordLogOptions } from '../log/record-log';
import { createIngest, type Ingest } from './ingest';

/**
 * The record log with the index fed by its commits: every page the log keeps becomes
 * index rows in the same transaction.
 */
export async function openIndexedLog(options: Omit<RecordLogOptions, 'onCommit'>) {
  // Ingest needs the log's pool, which exists once the log does; nothing commits before.
  const fed: { ingest?: Ingest } = {};
  const log = await openRecordLog({
    ...options,
    onCommit: async (client, path, texts, state) => {
      await fed.ingest?.onCommit(client, path, texts, state);
    },
  });
  fed.ingest = createIngest(log.pool);
  return log;
}
