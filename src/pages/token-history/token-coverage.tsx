import type { TokenPageAnswer } from '../../lib/answers';
import { plural } from '../../lib/format';
import loadStatus from '../../components/load-status.module.css';
import notice from '../../components/notice.module.css';

/**
 * How complete the history on screen is. Read from the token's own list, it is the whole
 * history; when that list could not be read, it is what the index had stored, and the
 * page says why and how far the collection is indexed.
 */
export function TokenCoverage({ answer }: { answer: TokenPageAnswer }) {
  const rows = answer.events.length;
  if (answer.tokenList.read) {
    return (
      <p className={loadStatus.status}>
        <span role="status">all {plural(rows, 'event')} loaded</span> · the token’s whole history,
        read from its own list
      </p>
    );
  }
  return (
    <div className={notice.wait} role="status">
      <strong>This history comes from stored data</strong>
      <span>{answer.tokenList.failure}</span>
      <span>
        {plural(rows, 'event')} stored. {answer.coverage.statement}
      </span>
    </div>
  );
}
