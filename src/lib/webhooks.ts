import { shortenHex } from './address';
import {
  refused,
  quoteParam,
  Reasons,
  searchReading,
  taken,
  type SearchReading,
} from './param-reading';

/**
 * The webhooks page's pure parts: the answers of `/api/webhooks…` (src/server/webhooks),
 * the page's state in the URL, a rule made from the form's fields, and which field a
 * server's refusal is about.
 */
export const WEBHOOK_RULE_KINDS = [
  'view',
  'sale-above-median',
  'wallet',
  'holders',
  'flagged-sale',
] as const;
export type WebhookRuleKind = (typeof WEBHOOK_RULE_KINDS)[number];

export type WebhookRule =
  | { kind: 'view'; view: string }
  | { kind: 'sale-above-median'; collection: string; factor: number; window: number }
  | { kind: 'wallet'; wallet: string; collection?: string }
  | { kind: 'holders'; collection: string; threshold: number }
  | { kind: 'flagged-sale'; collection: string };

export interface DeliveryCounts {
  pending: number;
  delivered: number;
  failed: number;
}

/** One webhook as `GET /api/webhooks` lists it (never its secret). */
export interface WebhookSummary {
  id: string;
  url: string;
  rule: WebhookRule;
  /** Unix seconds. */
  createdAt: number;
  deliveries: DeliveryCounts;
}

/** `POST /api/webhooks`' answer: the secret, this once. */
export interface CreatedWebhook {
  id: string;
  url: string;
  rule: WebhookRule;
  secret: string;
  createdAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One line of a webhook's delivery log (times in unix milliseconds). */
export interface WebhookDelivery {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  body: unknown;
}

/** The words of each rule kind, in the form's choice and the list. */
export const RULE_KIND_LABELS: Record<WebhookRuleKind, string> = {
  view: 'A view’s new changes of hands',
  'sale-above-median': 'A sale far above the median',
  wallet: 'A wallet moving',
  holders: 'Holders crossing a number',
  'flagged-sale': 'A flagged sale',
};

/** The rule in a line, as the list shows it. */
export function describeRule(rule: WebhookRule): string {
  switch (rule.kind) {
    case 'view':
      return `Every new change of hands of ${rule.view}`;
    case 'sale-above-median':
      return `A sale at least ${rule.factor}× the median of the ${rule.window} sales before it in ${shortenHex(rule.collection)}`;
    case 'wallet':
      return `${shortenHex(rule.wallet)} sends or receives${rule.collection ? ` in ${shortenHex(rule.collection)}` : ', in any collection'}`;
    case 'holders':
      return `${shortenHex(rule.collection)}’s holders reach ${rule.threshold} or fall below it`;
    case 'flagged-sale':
      return `A sale of ${shortenHex(rule.collection)} flagged as a possible wash trade`;
  }
}

/** What the page's URL holds: the form's rule kind, a view to watch, the webhook whose log is open. */
export interface WebhooksView {
  kind: WebhookRuleKind;
  /** A view's path and search, prefilled from its page's "Get a webhook" link. */
  view: string | null;
  /** The webhook whose delivery log is shown. */
  log: string | null;
}

const KEYS = ['kind', 'log', 'view'] as const;

/** `kind`, `view` and `log` read; what cannot be taken is left out, saying why. */
export function readWebhooksSearch(params: URLSearchParams): {
  view: WebhooksView;
  reading: SearchReading;
} {
  const reasons = new Reasons();
  const kindText = params.get('kind');
  const kind = reasons.take(
    !kindText || (WEBHOOK_RULE_KINDS as readonly string[]).includes(kindText)
      ? taken((kindText ?? 'view') as WebhookRuleKind)
      : refused<WebhookRuleKind>(
          'view',
          `${quoteParam('kind', kindText)} is no kind of rule (${WEBHOOK_RULE_KINDS.join(', ')}): a view’s is offered.`,
        ),
  );
  const viewText = params.get('view');
  const view = reasons.take(
    !viewText || viewText.startsWith('/')
      ? taken(viewText || null)
      : refused(
          null,
          `${quoteParam('view', viewText)} is no page of this app (a path, /contracts/0x…): left out.`,
        ),
  );
  const logText = params.get('log');
  const log = reasons.take(
    !logText || /^[1-9][0-9]{0,17}$/.test(logText)
      ? taken(logText || null)
      : refused(null, `${quoteParam('log', logText)} is no webhook’s number: no log is shown.`),
  );
  const reading = searchReading(
    params,
    [
      ['kind', kind === 'view' ? null : kind],
      ['log', log],
      ['view', view],
    ],
    reasons,
    KEYS,
  );
  return { view: { kind, view, log }, reading };
}

/** The form's fields, as typed. */
export type RuleFields = Partial<
  Record<'view' | 'collection' | 'factor' | 'window' | 'wallet' | 'threshold', string>
>;

/**
 * The rule the form's fields make, for the server to check: a field left empty is sent
 * empty (or null for a number), so the server's refusal names it; optional ones
 * (`window`, a wallet's `collection`) are left out.
 */
export function ruleOfFields(kind: WebhookRuleKind, fields: RuleFields): Record<string, unknown> {
  const text = (name: keyof RuleFields) => (fields[name] ?? '').trim();
  const number = (name: keyof RuleFields) => (text(name) === '' ? null : Number(text(name)));
  switch (kind) {
    case 'view':
      return { kind, view: text('view') };
    case 'sale-above-median':
      return {
        kind,
        collection: text('collection'),
        factor: number('factor'),
        ...(text('window') !== '' && { window: number('window') }),
      };
    case 'wallet':
      return {
        kind,
        wallet: text('wallet'),
        ...(text('collection') !== '' && { collection: text('collection') }),
      };
    case 'holders':
      return { kind, collection: text('collection'), threshold: number('threshold') };
    case 'flagged-sale':
      return { kind, collection: text('collection') };
  }
}

export type WebhookField = keyof RuleFields | 'url';

// How the server's refusals begin (src/server/webhooks/rules.ts, receiver-url.ts, webhook-api.ts).
const FIELD_OF_PROBLEM: [RegExp, WebhookField][] = [
  [/^url\b/, 'url'],
  [/^rule\.view\b/, 'view'],
  [/^view\b/, 'view'],
  [/^factor\b/, 'factor'],
  [/^window\b/, 'window'],
  [/^threshold\b/, 'threshold'],
  [/^The collection address\b/, 'collection'],
  [/^The wallet address\b/, 'wallet'],
];

/** The field a server's refusal of a new webhook is about, or null (the form's as a whole). */
export function fieldOfProblem(message: string): WebhookField | null {
  return FIELD_OF_PROBLEM.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
