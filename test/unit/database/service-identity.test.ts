import { describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../../../src/server/config';
import { serviceIdentity } from '../../../src/server/database/service-identity';

/** The name a database keeps of its service: stable across spellings, never the key. */
const real = (url: string): UpstreamConfig => ({ kind: 'real', url, apiKey: 'secret-key' });
const sample = (profile: 'deployed' | 'documented', seed: number, anchor?: number) =>
  ({ kind: 'sample', profile, seed, live: true, anchor }) as const;

describe('serviceIdentity', () => {
  it('names the real service by its base URL: scheme and host lowercased, default port and trailing slashes dropped', () => {
    const names = [
      'https://API.Example.test/v0/',
      'HTTPS://api.example.test:443/v0',
      'https://api.example.test/v0//',
    ].map((url) => serviceIdentity(real(url)).service);
    expect(new Set(names)).toEqual(new Set(['https://api.example.test/v0']));
    expect(serviceIdentity(real('http://127.0.0.1:8787/')).service).toBe('http://127.0.0.1:8787');
    expect(serviceIdentity(real('https://api.example.test:8443/a/B')).service).toBe(
      'https://api.example.test:8443/a/B',
    );
  });

  it('tells apart what makes another service: host, port, path', () => {
    const names = [
      'https://api.example.test/v0',
      'https://api.example.test/v1',
      'https://api.example.test:8443/v0',
      'https://other.example.test/v0',
      'http://api.example.test/v0',
    ].map((url) => serviceIdentity(real(url)).service);
    expect(new Set(names).size).toBe(names.length);
  });

  it('never keeps the key, credentials or a query', () => {
    const identity = serviceIdentity(real('https://api.example.test/v0/'));
    expect(identity).toMatchObject({
      service: 'https://api.example.test/v0',
      description: 'the Token Events Service at https://api.example.test/v0',
      sample: false,
    });
    expect(JSON.stringify(identity)).not.toContain('secret-key');
    const odd = serviceIdentity(real('https://user:secret-key@api.example.test/v0?key=secret-key'));
    expect(JSON.stringify(odd)).not.toContain('secret-key');
    expect(odd.service).toBe('https://api.example.test/v0');
  });

  it('names the sample service by profile and seed; its anchor is kept apart', () => {
    expect(serviceIdentity(sample('deployed', 1))).toEqual({
      service: 'sample:deployed:seed=1',
      description: 'the embedded sample service (deployed profile, seed 1)',
      sample: true,
    });
    expect(serviceIdentity(sample('documented', 7, 1_700_000_000)).service).toBe(
      'sample:documented:seed=7',
    );
  });
});
