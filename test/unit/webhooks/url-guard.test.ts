import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  type HostResolver,
  isPublicAddress,
  type UrlGuardOptions,
} from '../../../src/webhooks/url-guard.js';

const resolvesTo =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses;
const mustNotResolve: HostResolver = async (host) => {
  throw new Error(`resolver called for ${host}`);
};
const strict = (resolve: HostResolver = mustNotResolve): UrlGuardOptions => ({
  allowPrivateTargets: false,
  resolve,
});

async function reasonOf(url: string, options: UrlGuardOptions = strict()): Promise<string> {
  const check = await checkWebhookUrl(url, options);
  return check.ok ? 'ok' : check.reason;
}

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '[2606:4700:4700::1111]',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.100.100.200',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b::808:808',
    '100::1',
    '2001::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    '3fff::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'localhost',
    'example.com',
    '',
    '1.2.3',
    '999.1.1.1',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('judges an IPv4-mapped IPv6 address like the IPv4 address it carries', () => {
    fc.assert(
      fc.property(ipv4, (ip) => {
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(isPublicAddress(ip));
      }),
    );
  });

  it('refuses every address of the private ranges', () => {
    const inRange = (first: number, bits: number) =>
      fc.nat(2 ** (32 - bits) - 1).map((offset) => {
        const n = first + offset;
        return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
      });
    const ip = (a: number, b: number) => (a * 256 + b) * 65_536;
    fc.assert(
      fc.property(
        fc.oneof(
          inRange(ip(10, 0), 8),
          inRange(ip(127, 0), 8),
          inRange(ip(172, 16), 12),
          inRange(ip(192, 168), 16),
          inRange(ip(169, 254), 16),
          inRange(ip(100, 64), 10),
        ),
        (address) => {
          expect(isPublicAddress(address)).toBe(false);
        },
      ),
    );
  });
});

describe('checkWebhookUrl (production rules)', () => {
  it('accepts an https URL whose host resolves only to public addresses', async () => {
    const check = await checkWebhookUrl(
      'https://Hooks.Example.com/sns?x=1',
      strict(resolvesTo('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946')),
    );
    expect(check).toEqual({ ok: true, url: new URL('https://hooks.example.com/sns?x=1') });
  });

  it('accepts public IP literals without resolving', async () => {
    expect(await reasonOf('https://8.8.8.8/hook')).toBe('ok');
    expect(await reasonOf('https://[2606:4700:4700::1111]:8443/hook')).toBe('ok');
  });

  it.each([
    ['http://hooks.example.com/', 'must use https://'],
    ['ftp://hooks.example.com/', 'must use https://'],
    ['javascript:alert(1)', 'must use https://'],
    ['hooks.example.com/path', 'must be an absolute URL such as https://example.com/hooks'],
    ['', 'must be an absolute URL such as https://example.com/hooks'],
    ['https://user:pass@hooks.example.com/', 'must not contain credentials'],
    ['https://user@hooks.example.com/', 'must not contain credentials'],
    [`https://hooks.example.com/${'a'.repeat(2030)}`, 'must be at most 2048 characters'],
  ])('refuses %s', async (url, reason) => {
    expect(await reasonOf(url)).toBe(reason);
  });

  it.each([
    ['https://127.0.0.1/', '127.0.0.1'],
    ['https://[::1]/', '::1'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://10.0.0.1/', '10.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['https://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe'],
  ])('refuses the private literal %s without resolving', async (url, host) => {
    expect(await reasonOf(url)).toBe(`host ${host} is not a public address`);
  });

  it.each([
    ['https://localhost/', 'localhost'],
    ['https://LOCALHOST./', 'localhost'],
    ['https://api.localhost/', 'api.localhost'],
    ['https://printer.local/', 'printer.local'],
    ['https://metadata.google.internal/', 'metadata.google.internal'],
    ['https://router.home.arpa/', 'router.home.arpa'],
  ])('refuses the internal name %s without resolving', async (url, host) => {
    expect(await reasonOf(url)).toBe(`host ${host} is an internal name`);
  });

  it('refuses a name that resolves to any non-public address', async () => {
    const resolve = resolvesTo('93.184.216.34', '10.0.0.1');
    expect(await reasonOf('https://rebind.example.com/', strict(resolve))).toBe(
      'host rebind.example.com resolves to 10.0.0.1, which is not a public address',
    );
    expect(await reasonOf('https://v6.example.com/', strict(resolvesTo('::ffff:169.254.169.254')))).toBe(
      'host v6.example.com resolves to ::ffff:169.254.169.254, which is not a public address',
    );
  });

  it('refuses a name that does not resolve, resolves to nothing, or takes too long', async () => {
    const missing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const hanging: HostResolver = () => new Promise<string[]>(() => {});
    const unresolved = 'host nowhere.example.com could not be resolved';
    expect(await reasonOf('https://nowhere.example.com/', strict(missing))).toBe(unresolved);
    expect(await reasonOf('https://nowhere.example.com/', strict(resolvesTo()))).toBe(unresolved);
    expect(await reasonOf('https://nowhere.example.com/', { ...strict(hanging), resolveTimeoutMs: 20 })).toBe(
      unresolved,
    );
  });

  it('judges every decimal spelling of an IPv4 host as its dotted form', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(2 ** 32 - 1), async (n) => {
        const dotted = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
        const expected = isPublicAddress(dotted) ? 'ok' : `host ${dotted} is not a public address`;
        expect(await reasonOf(`https://${n}/`)).toBe(expected);
      }),
    );
  });
});

describe('checkWebhookUrl (private targets allowed, dev and tests)', () => {
  const relaxed = { allowPrivateTargets: true, resolve: mustNotResolve };

  it.each(['http://127.0.0.1:8080/hook', 'http://localhost:3000/', 'https://[::1]/', 'https://10.0.0.1/'])(
    'accepts %s without resolving',
    async (url) => {
      expect(await reasonOf(url, relaxed)).toBe('ok');
    },
  );

  it('still refuses other schemes, credentials and over-long URLs', async () => {
    expect(await reasonOf('ftp://127.0.0.1/', relaxed)).toBe('must use https:// or http://');
    expect(await reasonOf('http://a:b@127.0.0.1/', relaxed)).toBe('must not contain credentials');
    expect(await reasonOf(`http://127.0.0.1/${'a'.repeat(2048)}`, relaxed)).toBe(
      'must be at most 2048 characters',
    );
  });
});
