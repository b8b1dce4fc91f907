import { describe, expect, it } from 'vitest';
import { problemOf } from '../../../src/server/api/params';
import { checkedReceiverUrl } from '../../../src/server/webhooks/receiver-url';
import { webhookRequest } from '../../../src/server/webhooks/rules';
import { hrefs, webhookForViewHref } from '../../../src/lib/routes';
import {
  describeRule,
  fieldOfProblem,
  readWebhooksSearch,
  ruleOfFields,
  WEBHOOK_RULE_KINDS,
  type RuleFields,
  type WebhookRuleKind,
} from '../../../src/lib/webhooks';
import { webhookRule } from '../../../src/server/webhooks/rules';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;

/** The server's refusal of a rule made from the form's fields, or null when it takes it. */
function refusal(kind: WebhookRuleKind, fields: RuleFields): string | null {
  const parsed = webhookRequest.safeParse({
    url: 'https://hooks.example/',
    rule: ruleOfFields(kind, fields),
  });
  return parsed.success ? null : problemOf(parsed.error);
}

describe('the webhooks page’s rules', () => {
  it('are the server’s rule kinds', () => {
    expect([...WEBHOOK_RULE_KINDS].sort()).toEqual(
      webhookRule.options.map((option) => option.shape.kind.value).sort(),
    );
  });

  it('make rules the server takes from fields filled in', () => {
    expect(refusal('view', { view: `/contracts/${A}?kind=sale` })).toBeNull();
    expect(refusal('sale-above-median', { collection: A, factor: '2.5' })).toBeNull();
    expect(refusal('sale-above-median', { collection: A, factor: '3', window: '11' })).toBeNull();
    expect(refusal('wallet', { wallet: B })).toBeNull();
    expect(refusal('wallet', { wallet: B, collection: A })).toBeNull();
    expect(refusal('holders', { collection: A, threshold: '100' })).toBeNull();
    expect(refusal('flagged-sale', { collection: ` ${A} ` })).toBeNull();
  });

  it('name the field of each refusal of the server', () => {
    const cases: [WebhookRuleKind, RuleFields, string][] = [
      ['sale-above-median', { collection: A }, 'factor'],
      ['sale-above-median', { collection: A, factor: '0.5' }, 'factor'],
      ['sale-above-median', { collection: A, factor: 'x' }, 'factor'],
      ['sale-above-median', { collection: A, factor: '3', window: '4' }, 'window'],
      ['sale-above-median', { collection: '', factor: '3' }, 'collection'],
      ['wallet', { wallet: 'someone' }, 'wallet'],
      ['wallet', { wallet: B, collection: 'nope' }, 'collection'],
      ['holders', { collection: A, threshold: '1.5' }, 'threshold'],
      ['holders', { collection: A }, 'threshold'],
      ['flagged-sale', {}, 'collection'],
    ];
    for (const [kind, fields, field] of cases) {
      const message = refusal(kind, fields);
      expect(message, `${kind} ${JSON.stringify(fields)}`).not.toBeNull();
      expect(fieldOfProblem(message!), message!).toBe(field);
    }
    for (const url of [
      '',
      'ftp://hooks.example/',
      'https://u:p@hooks.example/',
      'https://h.example/#x',
    ]) {
      const message = checkedReceiverUrl(url);
      expect(typeof message).toBe('string');
      expect(fieldOfProblem(message as string)).toBe('url');
    }
    expect(
      fieldOfProblem('rule.view: view must be a collection, token or wallet page of this app.'),
    ).toBe('view');
    expect(fieldOfProblem('The body must be JSON.')).toBeNull();
  });

  it('say each rule in a line', () => {
    expect(describeRule({ kind: 'view', view: '/contracts/0x1?kind=sale' })).toBe(
      'Every new change of hands of /contracts/0x1?kind=sale',
    );
    expect(describeRule({ kind: 'holders', collection: A, threshold: 1000 })).toContain(
      'reach 1000 or fall below it',
    );
    expect(describeRule({ kind: 'wallet', wallet: B })).toContain('in any collection');
  });
});

describe('the webhooks page’s URL', () => {
  it('carries a view to share, canonical as the page reads it', () => {
    const href = webhookForViewHref(`/contracts/${A}`, '?kind=sale&sort=-price');
    const url = new URL(href, 'http://app.invalid');
    expect(url.pathname).toBe(hrefs.webhooks());
    const { view, reading } = readWebhooksSearch(url.searchParams);
    expect(view).toEqual({
      kind: 'view',
      view: `/contracts/${A}?kind=sale&sort=-price`,
      log: null,
    });
    expect(reading.search).toBe(url.search);
    expect(reading.reasons).toEqual([]);
  });

  it('leaves out what it cannot read, saying why', () => {
    const { view, reading } = readWebhooksSearch(
      new URLSearchParams('kind=nothing&log=abc&view=https%3A%2F%2Fevil.example&token=secret'),
    );
    expect(view).toEqual({ kind: 'view', view: null, log: null });
    expect(reading.search).toBe('');
    expect(reading.reasons).toHaveLength(4);
    expect(reading.reasons.join(' ')).toContain('“token” is not a setting of this page');
  });

  it('keeps a rule kind and a log, defaults left out', () => {
    const { view, reading } = readWebhooksSearch(new URLSearchParams('log=12&kind=holders'));
    expect(view).toEqual({ kind: 'holders', view: null, log: '12' });
    expect(reading.search).toBe('?kind=holders&log=12');
    expect(readWebhooksSearch(new URLSearchParams('kind=view')).reading.search).toBe('');
  });
});
