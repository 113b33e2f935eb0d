import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Webhook targets must be public servers: a subscriber must not make us call our own Redis, a
 * cloud metadata endpoint or anything else behind the firewall (SSRF). This check runs when a URL
 * is registered; delivery re-checks the address it actually connected to with `isPublicAddress`,
 * because DNS can change between the two (rebinding).
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Addresses a hostname resolves to (all of them, IPv4 and IPv6). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface UrlGuardOptions {
  /** Dev and tests: allow `http://` and private or loopback hosts. */
  readonly allowPrivateTargets: boolean;
  readonly resolve?: HostResolver;
  readonly resolveTimeoutMs?: number;
}

export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: string };

const NOT_PUBLIC_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (Alibaba's metadata service lives here)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

// IPv6 is checked the other way round: only global unicast (2000::/3) can be public, minus the
// special ranges inside it. Everything else (::1, fc00::/7, fe80::/10, ff00::/8, NAT64 ...) is out.
const NOT_PUBLIC_INSIDE_GLOBAL_V6: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, Teredo (embeds arbitrary IPv4)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds arbitrary IPv4)
  ['3fff::', 20], // documentation
];

const notPublicV4 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V4) notPublicV4.addSubnet(net, prefix, 'ipv4');
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');
const notPublicV6 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_INSIDE_GLOBAL_V6) notPublicV6.addSubnet(net, prefix, 'ipv6');
const ipv4MappedV6 = new BlockList();
ipv4MappedV6.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * True only for a public unicast address. Accepts what sockets report (`::ffff:1.2.3.4` for IPv4
 * on a dual-stack socket, zone ids); anything unparsable is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return !notPublicV4.check(address, 'ipv4');
  if (family !== 6) return false;
  // BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses, so ::ffff:127.0.0.1 is loopback.
  if (ipv4MappedV6.check(address, 'ipv6')) return !notPublicV4.check(address, 'ipv6');
  return globalUnicastV6.check(address, 'ipv6') && !notPublicV6.check(address, 'ipv6');
}

const INTERNAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Checks a webhook URL at registration. Reasons are phrased to follow "url: ". */
export async function checkWebhookUrl(raw: string, options: UrlGuardOptions): Promise<UrlCheck> {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return fail(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('must be an absolute URL such as https://example.com/hooks');
  }
  const schemes = options.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return fail(`must use ${schemes.map((s) => `${s}//`).join(' or ')}`);
  if (url.username || url.password) return fail('must not contain credentials');
  if (options.allowPrivateTargets) return { ok: true, url };

  // WHATWG parsing has already turned 0x7f000001, 2130706433 and 0177.0.0.1 into 127.0.0.1.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host))
    return isPublicAddress(host) ? { ok: true, url } : fail(`host ${host} is not a public address`);
  if (INTERNAL_NAME.test(host)) return fail(`host ${host} is an internal name`);

  let addresses: string[];
  try {
    addresses = await withTimeout(
      (options.resolve ?? systemResolver)(host),
      options.resolveTimeoutMs ?? 3_000,
    );
  } catch {
    return fail(`host ${host} could not be resolved`);
  }
  if (addresses.length === 0) return fail(`host ${host} could not be resolved`);
  const internal = addresses.find((a) => !isPublicAddress(a));
  if (internal) return fail(`host ${host} resolves to ${internal}, which is not a public address`);
  return { ok: true, url };
}

function fail(reason: string): UrlCheck {
  return { ok: false, reason };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
