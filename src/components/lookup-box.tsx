import { useQueryClient } from '@tanstack/react-query';
import { forwardRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useMatch, useNavigate } from 'react-router';
import { collectionDirectoryQueryOptions } from '../api/contracts';
import { canonicalAddress, shortenHex } from '../lib/address';
import type { Contract } from '../lib/contract';
import { lookupQueryOptions } from '../api/lookup';
import type { LookupAnswer, LookupMatch } from '../lib/answers';
import {
  matchTarget,
  notKnownText,
  notListedText,
  resolveLookup,
  type KnownContracts,
  type LookupResult,
} from '../lib/lookup';
import { hrefs, routePatterns } from '../lib/routes';
import { ContractImage } from './contract-image';
import { collectionTitle } from '../lib/collection-title';
import button from './button.module.css';
import styles from './lookup-box.module.css';

/** The collections the server knows, to recognise names and short forms. */
async function knownContracts(client: ReturnType<typeof useQueryClient>): Promise<KnownContracts> {
  try {
    // Asked once, at once: offline or failing, the lookup goes on with what it can read
    // from the input alone rather than wait for the connection.
    return await client.fetchQuery({
      ...collectionDirectoryQueryOptions(),
      retry: false,
      networkMode: 'always',
    });
  } catch {
    return { contracts: [], complete: false };
  }
}

/** What the server says a whole value is; null when it cannot be asked. */
async function askServer(
  client: ReturnType<typeof useQueryClient>,
  value: string,
  current: string | undefined,
): Promise<LookupAnswer | null> {
  try {
    return await client.fetchQuery({ ...lookupQueryOptions(value, current ?? null), retry: false });
  } catch {
    return null;
  }
}

/** The panel's answer: the reading of the input, or the server's matches for a whole value. */
type Shown = LookupResult | { kind: 'matches'; address: string; matches: LookupMatch[] };

/**
 * The header's "go to": a contract by address, short form or name, with a token id or
 * not, or a link to one of these pages. A whole address or hash that is no contract
 * loaded is asked of the server, which says what the index has seen it as: one answer
 * opens at once, several are offered, none is said. What it cannot open by itself it
 * explains in a panel under the box, over the page rather than pushing it down.
 */
export const LookupBox = forwardRef<HTMLInputElement>(function LookupBox(_props, ref) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const location = useLocation();
  const onContract = useMatch(routePatterns.contractEvents);
  const onToken = useMatch(routePatterns.tokenHistory);
  // The collection of the page: a token id alone opens one of its tokens.
  const current = canonicalAddress((onContract ?? onToken)?.params.address ?? '') ?? undefined;
  const [value, setValue] = useState('');
  const [answer, setResult] = useState<{
    shown: Shown;
    known: KnownContracts;
    at: string;
  } | null>(null);
  // Whatever the panel said is about the page it was said on: another page closes it.
  const result = answer?.at === location.key ? answer : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = location.key;
    const go = (href: string) => {
      setResult(null);
      setValue('');
      void navigate(href);
    };
    const known = await knownContracts(client);
    const shown = resolveLookup(value, known, current);
    if (shown.kind === 'wallet') return go(hrefs.wallet(shown.address));
    if (shown.kind === 'not-listed' && !shown.tokenId) {
      const asked = await askServer(client, shown.address, current);
      const only = asked?.matches.length === 1 ? asked.matches[0] : undefined;
      if (only) return go(matchTarget(only).href);
      // Unanswered (offline, failing), the panel below says what the input alone tells.
      if (asked) {
        setResult({
          shown: { kind: 'matches', address: shown.address, matches: asked.matches },
          known,
          at,
        });
        return;
      }
    }
    if (shown.kind !== 'go') {
      setResult({ shown, known, at });
      return;
    }
    const { address, tokenId } = shown;
    go(tokenId ? hrefs.tokenHistory(address, tokenId) : hrefs.contractEvents(address));
  };
  const error = result?.shown.kind === 'error' ? result.shown.message : null;
  return (
    <form
      className={styles.lookup}
      role="search"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <label htmlFor="lookup-input" className="visually-hidden">
        Go to a contract (address, short form, collection name or explorer link), optionally with a
        token id{current && ', or a token id of this collection'}
      </label>
      <input
        id="lookup-input"
        ref={ref}
        type="text"
        value={value}
        placeholder={
          current ? 'Token id, contract, name or link' : 'Contract, name or link [token id]'
        }
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={result ? 'lookup-panel' : undefined}
        onChange={(event) => {
          setValue(event.target.value);
          if (result) setResult(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setValue('');
            setResult(null);
          }
        }}
      />
      <button type="submit" className={button.button}>
        Go
      </button>
      {result && (
        <div id="lookup-panel" className={styles.panel}>
          <LookupPanel
            result={result.shown}
            known={result.known}
            current={current}
            onDone={() => setResult(null)}
          />
        </div>
      )}
    </form>
  );
});

function LookupPanel({
  result,
  known,
  current,
  onDone,
}: {
  result: Shown;
  known: KnownContracts;
  current: string | undefined;
  onDone: () => void;
}) {
  if (result.kind === 'matches') {
    return (
      <Matches
        address={result.address}
        matches={result.matches}
        current={current}
        onDone={onDone}
      />
    );
  }
  if (result.kind === 'error') {
    return (
      <p className={styles.error} role="alert">
        {result.message}
      </p>
    );
  }
  if (result.kind === 'choose') {
    return (
      <div role="status">
        <p>Several contracts fit; pick one:</p>
        <ul className={styles.choices}>
          {result.matches.map((contract) => (
            <li key={contract.address}>
              <Choice contract={contract} tokenId={result.tokenId} onDone={onDone} />
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (result.kind !== 'not-listed') return null;
  const { address, tokenId } = result;
  const currentContract = known.contracts.find((contract) => contract.address === current);
  return (
    <div role="alert">
      <p>
        <span className="mono" title={address}>
          {shortenHex(address)}
        </span>{' '}
        {notListedText(known)}
      </p>
      <p className={styles.actions}>
        {!tokenId && (
          <Link className={button.button} to={hrefs.wallet(address)} onClick={onDone}>
            Open as a wallet
          </Link>
        )}
        {current && (
          <Link
            className={tokenId ? button.button : button.secondary}
            to={hrefs.contractEvents(current, `?address=${address}`)}
            onClick={onDone}
          >
            Show {collectionTitle(currentContract, current)}’s events with this address
          </Link>
        )}
        <Link
          className={button.secondary}
          to={tokenId ? hrefs.tokenHistory(address, tokenId) : hrefs.contractEvents(address)}
          onClick={onDone}
        >
          Open it as a contract anyway
        </Link>
      </p>
    </div>
  );
}

function Choice({
  contract,
  tokenId,
  onDone,
}: {
  contract: Contract;
  tokenId: string | undefined;
  onDone: () => void;
}) {
  const name = contract.name ?? 'Unnamed contract';
  const to = tokenId
    ? hrefs.tokenHistory(contract.address, tokenId)
    : hrefs.contractEvents(contract.address);
  return (
    <Link className={styles.choice} to={to} onClick={onDone}>
      <ContractImage address={contract.address} image={contract.image} name={name} size={24} />
      <span>{name}</span>
      {contract.symbol && <span className="muted">{contract.symbol}</span>}
      <span className="mono muted">{shortenHex(contract.address)}</span>
    </Link>
  );
}

/** The server's answer for a whole value: none (not known), or each thing it is. */
function Matches({
  address,
  matches,
  current,
  onDone,
}: {
  address: string;
  matches: LookupMatch[];
  current: string | undefined;
  onDone: () => void;
}) {
  if (matches.length === 0) {
    return (
      <p className={styles.error} role="alert">
        {notKnownText(address, current)}
      </p>
    );
  }
  return (
    <div role="status">
      <p>
        <span className="mono" title={address}>
          {shortenHex(address)}
        </span>{' '}
        is several things the index has seen; pick one:
      </p>
      <p className={styles.actions}>
        {matches.map((match) => {
          const { href, label } = matchTarget(match);
          return (
            <Link key={match.kind} className={button.secondary} to={href} onClick={onDone}>
              {label}
            </Link>
          );
        })}
      </p>
    </div>
  );
}
