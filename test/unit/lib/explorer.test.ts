import { describe, expect, it } from 'vitest';
import { explorerHref, explorerName, parseExplorerUrl } from '../../../src/lib/explorer';

describe('explorer links', () => {
  it('names transactions and addresses as Voyager and Starkscan do', () => {
    expect(explorerHref('https://voyager.online', 'tx', '0xab')).toBe(
      'https://voyager.online/tx/0xab',
    );
    expect(explorerHref('https://starkscan.co', 'contract', '0xcd')).toBe(
      'https://starkscan.co/contract/0xcd',
    );
    expect(explorerName('https://www.starkscan.co')).toBe('starkscan.co');
  });

  it.each([
    ['https://voyager.online', 'https://voyager.online'],
    ['  https://voyager.online/ ', 'https://voyager.online'],
    ['https://sepolia.voyager.online/', 'https://sepolia.voyager.online'],
    ['https://explorer.example/starknet/?x=1#y', 'https://explorer.example/starknet'],
  ])('accepts %j', (input, base) => {
    expect(parseExplorerUrl(input)).toEqual({ ok: true, value: base });
  });

  it.each([
    'http://voyager.online',
    'javascript:alert(1)',
    'voyager.online',
    '',
    'https://u:p@x.io',
  ])('refuses %j', (input) => {
    expect(parseExplorerUrl(input).ok).toBe(false);
  });
});
