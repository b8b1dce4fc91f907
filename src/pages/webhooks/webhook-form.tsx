import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/api-error';
import { queryKeys } from '../../api/query-keys';
import { createWebhook } from '../../api/webhooks';
import { CopyButton } from '../../components/copy-button';
import { errorMessage } from '../../components/states';
import {
  fieldOfProblem,
  RULE_KIND_LABELS,
  ruleOfFields,
  WEBHOOK_RULE_KINDS,
  type CreatedWebhook,
  type RuleFields,
  type WebhookField,
  type WebhookRuleKind,
} from '../../lib/webhooks';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import styles from './webhooks-page.module.css';

interface FieldSpec {
  name: keyof RuleFields;
  label: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal';
  hint?: string;
}

const COLLECTION: FieldSpec = { name: 'collection', label: 'Collection', placeholder: '0x…' };

// Each rule's fields, as the server's rule takes them (src/server/webhooks/rules.ts).
const FIELDS: Record<WebhookRuleKind, FieldSpec[]> = {
  view: [
    {
      name: 'view',
      label: 'View',
      placeholder: '/contracts/0x…?kind=sale',
      hint: 'A collection’s, token’s or wallet’s page: its path and search, as the address bar shows it.',
    },
  ],
  'sale-above-median': [
    COLLECTION,
    { name: 'factor', label: 'Times the median', placeholder: '3', inputMode: 'decimal' },
    {
      name: 'window',
      label: 'Median of how many sales',
      placeholder: '25',
      inputMode: 'numeric',
      hint: 'Odd, 3 to 101; 25 when left empty.',
    },
  ],
  wallet: [
    { name: 'wallet', label: 'Wallet', placeholder: '0x…' },
    { ...COLLECTION, label: 'In collection (optional)', hint: 'Empty: any collection.' },
  ],
  holders: [
    COLLECTION,
    { name: 'threshold', label: 'Number of holders', placeholder: '1000', inputMode: 'numeric' },
  ],
  'flagged-sale': [COLLECTION],
};

/**
 * The form that makes a webhook: a receiver URL and a rule of one kind. The server checks
 * everything; a refusal is shown beside the field it is about. The secret of a webhook
 * made is shown once, with a copy button: the server never shows it again.
 */
export function WebhookForm({
  token,
  kind,
  view,
  onKind,
}: {
  token: string;
  kind: WebhookRuleKind;
  view: string | null;
  onKind: (kind: WebhookRuleKind) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const secretRef = useRef<HTMLDivElement>(null);
  const mutation = useMutation({
    mutationFn: (request: { url: string; rule: unknown }) => createWebhook(token, request),
    onSuccess: (answer) => {
      setCreated(answer);
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooksAll() });
    },
  });
  // The secret is what must be seen now: focus goes to it once it is shown.
  useEffect(() => {
    if (created) secretRef.current?.focus();
  }, [created]);
  const error = mutation.error;
  const problem = error instanceof ApiError && error.kind === 'bad_request' ? error.message : null;
  const problemField: WebhookField | null = problem ? fieldOfProblem(problem) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const fields: RuleFields = {};
    for (const spec of FIELDS[kind]) fields[spec.name] = String(data.get(spec.name) ?? '');
    setCreated(null);
    mutation.mutate({
      url: String(data.get('url') ?? '').trim(),
      rule: ruleOfFields(kind, fields),
    });
  };

  const problemId = `${id}-problem`;
  const fieldProps = (name: WebhookField) =>
    problemField === name ? { 'aria-invalid': true as const, 'aria-describedby': problemId } : {};
  const problemBeside = (name: WebhookField) =>
    problemField === name && (
      <p id={problemId} className={field.error} role="alert">
        {problem}
      </p>
    );

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New webhook</h2>
      {/* Keyed on the rule and the view: a new link's view fills the form anew. */}
      <form key={`${kind} ${view ?? ''}`} onSubmit={submit} className={styles.form} noValidate>
        <label className={field.field}>
          Rule
          <select
            value={kind}
            onChange={(event) => {
              mutation.reset();
              onKind(event.target.value as WebhookRuleKind);
            }}
          >
            {WEBHOOK_RULE_KINDS.map((each) => (
              <option key={each} value={each}>
                {RULE_KIND_LABELS[each]}
              </option>
            ))}
          </select>
        </label>
        <div className={field.field}>
          <label htmlFor={`${id}-url`}>Receiver URL</label>
          <input
            id={`${id}-url`}
            name="url"
            type="text"
            inputMode="url"
            autoComplete="off"
            placeholder="https://hooks.example/nft"
            {...fieldProps('url')}
          />
          {problemBeside('url')}
        </div>
        {FIELDS[kind].map((spec) => (
          <div key={spec.name} className={field.field}>
            <label htmlFor={`${id}-${spec.name}`}>{spec.label}</label>
            <input
              id={`${id}-${spec.name}`}
              name={spec.name}
              type="text"
              autoComplete="off"
              spellCheck={false}
              placeholder={spec.placeholder}
              inputMode={spec.inputMode}
              defaultValue={spec.name === 'view' ? (view ?? '') : undefined}
              {...fieldProps(spec.name)}
            />
            {spec.hint && <span className="muted">{spec.hint}</span>}
            {problemBeside(spec.name)}
          </div>
        ))}
        <div className={styles.row}>
          <button type="submit" className={button.button} disabled={mutation.isPending}>
            {mutation.isPending ? 'Making…' : 'Make the webhook'}
          </button>
        </div>
        {error && problemField === null && (
          <p className={field.error} role="alert">
            {errorMessage(error)}
          </p>
        )}
      </form>
      {created && (
        <div className={styles.secret} role="status" tabIndex={-1} ref={secretRef}>
          <strong>Webhook {created.id} made.</strong> Its secret signs every delivery; it is shown
          this once, so copy it now:
          <span className={styles.secretValue}>
            <code>{created.secret}</code>
            <CopyButton value={created.secret} label={`Copy the secret of webhook ${created.id}`} />
          </span>
          <button type="button" className={button.secondary} onClick={() => setCreated(null)}>
            Done: hide the secret
          </button>
        </div>
      )}
    </section>
  );
}
