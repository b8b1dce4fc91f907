import { describe, expect, it } from 'vitest';
import { contractImagePath, imageSource } from '../../../src/lib/image-url';

describe('imageSource', () => {
  it.each([
    ['https://example.com/a.png', { kind: 'https', url: 'https://example.com/a.png' }],
    ['ipfs://bafy123/1.png', { kind: 'https', url: 'https://gw.test/ipfs/bafy123/1.png' }],
    ['ipfs://ipfs/bafy123/1.png', { kind: 'https', url: 'https://gw.test/ipfs/bafy123/1.png' }],
    [
      'data:image/PNG;base64,iVBO',
      { kind: 'data', type: 'image/png', base64: true, payload: 'iVBO' },
    ],
    [
      'data:image/gif,GIF89a',
      { kind: 'data', type: 'image/gif', base64: false, payload: 'GIF89a' },
    ],
    // Served over plain http a picture travels in clear and can be swapped on the way.
    ['http://example.com/a.png', null],
    // A document, not a picture: never served as it is.
    ['data:image/svg+xml,%3Csvg%3E', null],
    ['https://user:secret@example.com/a.png', null],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['ipfs://../../etc', null],
    ['file:///etc/passwd', null],
    ['', null],
    [undefined, null],
    [null, null],
    ['garbage', null],
    ['//evil.example/x.png', null],
  ])('%s → %j', (input, expected) => {
    expect(imageSource(input, 'https://gw.test/ipfs/')).toEqual(expected);
  });
});

describe('contractImagePath', () => {
  it('is our route, its version changing with the source', () => {
    const path = contractImagePath('0xabc', 'https://example.com/a.png');
    expect(path).toMatch(/^\/api\/images\/contracts\/0xabc\?v=[0-9a-z]+$/);
    expect(contractImagePath('0xabc', ' https://example.com/a.png ')).toBe(path);
    expect(contractImagePath('0xabc', 'https://example.com/b.png')).not.toBe(path);
  });
});
