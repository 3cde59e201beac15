import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientAddress, linkVary, publicOrigin } from '@/lib/http/public-origin.mjs';

// The origin every link is built from: PUBLIC_URL, the trusted forwarded headers, the Host header,
// and everything a hostile client can send in their place. And the client address per-client
// limits count by, from the same trust.

const ENV = ['PUBLIC_URL', 'TRUST_PROXY', 'VERCEL'] as const;
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  for (const k of ENV) delete process.env[k];
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.restoreAllMocks();
});

const forwarded = (proto: string, host: string) => new Headers({ host: 'app.internal:3000', 'x-forwarded-proto': proto, 'x-forwarded-host': host });

// Header values fetch's Headers refuses (CR, LF) are tested through Node's plain header object.
const HOSTILE_HOSTS = [
  'evil.example/%0aalert(1)//',
  'evil.example/path',
  'evil.example\r\nSet-Cookie: a=b',
  'evil.example\nx',
  'user@evil.example',
  'user:pass@evil.example',
  'évil.example',
  'evil.example:0',
  'evil.example:65536',
  'evil.example:99999',
  'evil.example:',
  'evil.example:80x',
  'evil.example?x=1',
  'evil.example#x',
  'evil example',
  '"><script>alert(1)</script>',
  'javascript:alert(1)',
  '[::1',
  '[zz::1]',
  '999.999.999.999',
  '-evil.example',
  '',
];
const HOSTILE_SCHEMES = ['javascript', 'data', 'ftp', 'file', 'HTTPS:', 'https://evil.example', 'vbscript', 'ws', ' '];

describe('publicOrigin without configuration', () => {
  it("uses the request's own Host, over http", () => {
    expect(publicOrigin(new Headers({ host: 'gold.example:8080' }))).toBe('http://gold.example:8080');
    expect(publicOrigin({ host: 'Gold.Example' })).toBe('http://gold.example');
    expect(publicOrigin({ host: '127.0.0.1:3000' })).toBe('http://127.0.0.1:3000');
    expect(publicOrigin({ host: '[::1]:3000' })).toBe('http://[::1]:3000');
    expect(publicOrigin({ host: 'gold_api:3000' })).toBe('http://gold_api:3000');
  });

  it('ignores forwarded headers unless the proxy is trusted', () => {
    expect(publicOrigin(forwarded('https', 'gold.example'))).toBe('http://app.internal:3000');
    expect(publicOrigin({ host: 'app.internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gold.example' })).toBe(
      'http://app.internal:3000',
    );
    expect(linkVary()).toBeNull();
  });

  it('falls back to the URL host, then localhost, when Host is missing or malformed', () => {
    expect(publicOrigin(new Headers(), 'http://10.0.0.5:3000/api/v1/spot')).toBe('http://10.0.0.5:3000');
    expect(publicOrigin({ host: 'user@evil.example' }, new URL('http://app.internal/x'))).toBe('http://app.internal');
    expect(publicOrigin({ host: 'évil.example' })).toBe('http://localhost');
    expect(publicOrigin({}, 'not a url')).toBe('http://localhost');
  });

  for (const host of HOSTILE_HOSTS) {
    it(`a Host of ${JSON.stringify(host)} never reaches a link`, () => {
      const origin = publicOrigin({ host }, 'http://app.internal:3000/');
      expect(origin).toBe('http://app.internal:3000');
    });
  }
});

describe('publicOrigin behind a trusted proxy', () => {
  beforeEach(() => {
    process.env.TRUST_PROXY = '1';
  });

  it('honours X-Forwarded-Proto and X-Forwarded-Host, first of a chain', () => {
    expect(publicOrigin(forwarded('https', 'gold.example'))).toBe('https://gold.example');
    expect(publicOrigin(forwarded('HTTPS', 'Gold.Example:8443'))).toBe('https://gold.example:8443');
    expect(publicOrigin(forwarded('https, http', 'gold.example, proxy.internal'))).toBe('https://gold.example');
    expect(publicOrigin(forwarded('https', 'gold.example:443'))).toBe('https://gold.example');
    expect(publicOrigin({ host: 'a:1', 'x-forwarded-proto': ['https'], 'x-forwarded-host': ['gold.example'] })).toBe('https://gold.example');
    expect(linkVary()).toBe('X-Forwarded-Proto, X-Forwarded-Host');
  });

  it('takes one forwarded header without the other', () => {
    expect(publicOrigin({ host: 'app.internal:3000', 'x-forwarded-proto': 'https' })).toBe('https://app.internal:3000');
    expect(publicOrigin({ host: 'app.internal:3000', 'x-forwarded-host': 'gold.example' })).toBe('http://gold.example');
  });

  for (const scheme of HOSTILE_SCHEMES) {
    it(`a forwarded scheme of ${JSON.stringify(scheme)} falls back to http`, () => {
      expect(publicOrigin(forwarded(scheme, 'gold.example'))).toBe('http://gold.example');
    });
  }

  for (const host of HOSTILE_HOSTS) {
    it(`a forwarded host of ${JSON.stringify(host)} falls back to the request's Host`, () => {
      const origin = publicOrigin({ host: 'app.internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': host });
      expect(origin).toBe('https://app.internal:3000');
    });
  }

  it('on Vercel the forwarded headers are trusted without TRUST_PROXY, and no Vary is sent', () => {
    delete process.env.TRUST_PROXY;
    process.env.VERCEL = '1';
    expect(publicOrigin(forwarded('https', 'gold.vercel.app'))).toBe('https://gold.vercel.app');
    expect(linkVary()).toBeNull();
  });

  it('TRUST_PROXY other than 1 does not trust', () => {
    for (const value of ['true', 'yes', '0', '']) {
      process.env.TRUST_PROXY = value;
      expect(publicOrigin(forwarded('https', 'gold.example')), value).toBe('http://app.internal:3000');
    }
  });
});

describe('PUBLIC_URL', () => {
  it('wins over every header, trusted or not', () => {
    process.env.PUBLIC_URL = 'https://Gold.Example/';
    process.env.TRUST_PROXY = '1';
    expect(publicOrigin(forwarded('http', 'other.example'))).toBe('https://gold.example');
    expect(publicOrigin({ host: 'évil' })).toBe('https://gold.example');
    expect(linkVary()).toBeNull();
    process.env.PUBLIC_URL = 'http://gold.example:8080';
    expect(publicOrigin({})).toBe('http://gold.example:8080');
  });

  it('an invalid value is ignored with one warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const value of [
      'javascript:alert(1)//',
      'ftp://gold.example',
      'https://gold.example/api',
      'https://u:p@gold.example',
      'https://gold.example?x',
      'gold.example',
      'https://évil example',
    ]) {
      process.env.PUBLIC_URL = value;
      expect(publicOrigin({ host: 'app.internal:3000' }), value).toBe('http://app.internal:3000');
      expect(publicOrigin({ host: 'app.internal:3000' }), value).toBe('http://app.internal:3000');
    }
    expect(warn).toHaveBeenCalledTimes(7);
    expect(String(warn.mock.calls[0][0])).toContain('PUBLIC_URL ignored');
  });
});

describe('clientAddress', () => {
  const socket = (address: string) => ({ 'x-socket-address': address });

  it('writes every form of one address as one key: IPv4 plain, IPv6 as its /64', () => {
    for (const [address, key] of [
      ['203.0.113.7', '203.0.113.7'],
      ['203.0.113.007', '203.0.113.7'],
      ['::ffff:203.0.113.7', '203.0.113.7'],
      ['::FFFF:cb00:7107', '203.0.113.7'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['2001:0DB8:0000:0000:abcd:0:0:1', '2001:db8:0:0::/64'],
      ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['[2001:db8:1:2::9]:4431', '2001:db8:1:2::/64'],
      ['203.0.113.7:4431', '203.0.113.7'],
    ]) {
      expect(clientAddress(socket(address)), address).toBe(key);
    }
  });

  it('anything that is not an address is unknown', () => {
    for (const value of ['', 'unknown', '203.0.113.256', '1.2.3', 'evil.example', '2001:db8::1::2', '::ffff:1.2.3.4.5', `${'1'.repeat(200)}`]) {
      expect(clientAddress(socket(value)), value).toBe('unknown');
    }
    expect(clientAddress({})).toBe('unknown');
  });

  it('without a trusted proxy: the socket, whatever forwarded headers say', () => {
    process.env.TRUST_PROXY = 'yes';
    const headers = { ...socket('198.51.100.1'), 'x-forwarded-for': '203.0.113.1', 'x-real-ip': '203.0.113.2' };
    expect(clientAddress(headers)).toBe('198.51.100.1');
  });

  it('TRUST_PROXY=1: the last X-Forwarded-For hop, else the socket', () => {
    process.env.TRUST_PROXY = '1';
    expect(clientAddress({ ...socket('10.0.0.1'), 'x-forwarded-for': '198.51.100.9, 203.0.113.1' })).toBe('203.0.113.1');
    expect(clientAddress(new Headers({ ...socket('10.0.0.1'), 'x-forwarded-for': '203.0.113.1' }))).toBe('203.0.113.1');
    expect(clientAddress({ ...socket('10.0.0.1'), 'x-forwarded-for': '203.0.113.1, garbage' })).toBe('10.0.0.1');
    expect(clientAddress(socket('10.0.0.1'))).toBe('10.0.0.1');
  });

  it("on Vercel: the platform's headers, never the socket header (nothing sets it there but a client)", () => {
    process.env.VERCEL = '1';
    process.env.TRUST_PROXY = '1';
    expect(clientAddress({ 'x-real-ip': '203.0.113.1', 'x-vercel-forwarded-for': '203.0.113.2', 'x-forwarded-for': '203.0.113.3' })).toBe(
      '203.0.113.1',
    );
    expect(clientAddress({ 'x-vercel-forwarded-for': '203.0.113.2, 10.0.0.1', 'x-forwarded-for': '203.0.113.3' })).toBe('203.0.113.2');
    expect(clientAddress({ 'x-forwarded-for': '203.0.113.3, 10.0.0.1' })).toBe('203.0.113.3');
    expect(clientAddress(socket('198.51.100.1'))).toBe('unknown');
  });
});
