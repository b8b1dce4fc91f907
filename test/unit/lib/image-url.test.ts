import { describe, expect, it } from 'vitest';
import { safeImageUrl } from '../../../src/lib/image-url';

describe('safeImageUrl', () => {
  it.each([
    ['https://example.com/a.png', 'https://example.com/a.png'],
    ['http://example.com/a.png', 'https://example.com/a.png'],
    ['ipfs://bafy123/1.png', 'https://gw.test/ipfs/bafy123/1.png'],
    ['ipfs://ipfs/bafy123/1.png', 'https://gw.test/ipfs/bafy123/1.png'],
    ['data:image/svg+xml,%3Csvg%3E', 'data:image/svg+xml,%3Csvg%3E'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['ipfs://../../etc', null],
    ['', null],
    [undefined, null],
    ['garbage', null],
    ['//evil.example/x.png', null],
  ])('%s → %s', (input, expected) => {
    expect(safeImageUrl(input, 'https://gw.test/ipfs/')).toBe(expected);
  });
});
