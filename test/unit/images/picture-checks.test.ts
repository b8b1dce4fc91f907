import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/server/network-address';
import { sniffImageType } from '../../../src/server/images/sniff-image';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part,
    ),
  );

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    '%s may be connected to',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.251',
    '192.0.2.1',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    '2001:db8::1',
    'not an address',
  ])('%s may not', (address) => expect(isPublicAddress(address)).toBe(false));
});

describe('sniffImageType', () => {
  it.each([
    [bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    [bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [bytes('GIF89a', [1, 0]), 'image/gif'],
    [bytes('GIF87a'), 'image/gif'],
    [bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    [bytes([0, 0, 0, 0x1c], 'ftypavif'), 'image/avif'],
    [bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    [bytes('<?xml version="1.0"?><svg/>'), null],
    [bytes('<!doctype html><p>'), null],
    [bytes('RIFF', [0, 0, 0, 0], 'WAVE'), null],
    [bytes(''), null],
  ])('%#: %s', (input, type) => expect(sniffImageType(input)).toBe(type));
});
