import dns from 'node:dns';
import net from 'node:net';
import { targetsAllowed } from './config';

// No one is reached who did not ask, nothing inside is reached at all (decisions §28). A webhook URL is
// `https` on a public address: no userinfo, no IP literal or name resolving into a range that is not the
// public internet, in any spelling (the WHATWG URL parser turns `127.1`, `0x7f000001`, `2130706433` and
// `017700000001` into 127.0.0.1, which is what a client would connect to). Checked at creation, and again
// at each delivery against the addresses a connection may use: the request's `lookup` resolves, refuses
// the whole answer if any address is not public, and the socket connects only to an address it checked
// (no DNS rebinding between the check and the connection). `ALERT_TARGETS_ALLOW` lets an operator (and the
// tests) allow hosts by name or addresses by CIDR, over `http` too.

/** Every range that is not the public internet, IPv4 and IPv6. */
const NOT_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 96, 'ipv6'], // unspecified, loopback, IPv4-compatible
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped
  ['64:ff9b::', 96, 'ipv6'], // NAT64 (embeds an IPv4 address)
  ['64:ff9b:1::', 48, 'ipv6'], // local NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 32, 'ipv6'], // Teredo (embeds an IPv4 address)
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

// One list per family: a BlockList matches an IPv4 address against its IPv4-mapped IPv6 rules and the other way
// round, so one list holding ::ffff:0:0/96 would refuse every IPv4 address.
const notPublic4 = new net.BlockList();
const notPublic6 = new net.BlockList();
for (const [address, prefix, family] of NOT_PUBLIC) (family === 'ipv4' ? notPublic4 : notPublic6).addSubnet(address, prefix, family);

/** Whether `address` (an IP literal without brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !notPublic4.check(address, 'ipv4');
  if (family === 6) return !notPublic6.check(address, 'ipv6');
  return false;
}

interface Allowed {
  hosts: Set<string>;
  ranges: net.BlockList;
}

function allowed(): Allowed {
  const hosts = new Set<string>();
  const ranges = new net.BlockList();
  for (const entry of targetsAllowed()) {
    const [addr, bits] = entry.split('/');
    const family = net.isIP(addr);
    if (family !== 0) {
      const max = family === 4 ? 32 : 128;
      const prefix = bits === undefined ? max : Number(bits);
      if (Number.isInteger(prefix) && prefix >= 0 && prefix <= max) ranges.addSubnet(addr, prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else hosts.add(entry.replace(/\.$/, ''));
  }
  return { hosts, ranges };
}

/** Whether a connection may go to `address`: public, or in an allowed range. */
function permitted(address: string, allow: Allowed): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return allow.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6') || isPublicAddress(address);
}

/** A target refused, with the reason in words (a 400 at creation, a failed delivery later). */
export class RefusedTarget extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RefusedTarget';
  }
}

export interface CheckedTarget {
  url: URL;
  /** The host without brackets: a name, or an IP literal. */
  host: string;
  /** Allowed by name in ALERT_TARGETS_ALLOW: its addresses are the operator's choice, not checked. */
  byName: boolean;
}

/** The URL's own checks, before any lookup: scheme, userinfo, an IP literal's range. Throws RefusedTarget. */
export function parseTarget(raw: string, field = 'webhook.url'): CheckedTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTarget(`${field} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RefusedTarget(`${field} must be an https URL`);
  if (url.username || url.password) throw new RefusedTarget(`${field} must not carry a user name or password`);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allow = allowed();
  const literal = net.isIP(host) !== 0;
  const byName = !literal && allow.hosts.has(host.replace(/\.$/, ''));
  const listed = byName || (literal && allow.ranges.check(host, net.isIP(host) === 4 ? 'ipv4' : 'ipv6'));
  if (url.protocol === 'http:' && !listed) throw new RefusedTarget(`${field} must be an https URL`);
  if (literal && !permitted(host, allow)) throw new RefusedTarget(`${field} names an address that is not public (${host})`);
  if (!literal && !byName && (host === '' || !host.includes('.'))) throw new RefusedTarget(`${field} must name a public host`);
  return { url, host, byName };
}

/** Every address `host` resolves to. */
function resolveAll(host: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(host, { all: true, order: 'verbatim' }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/** The addresses a connection to `t` may use, each one checked; throws RefusedTarget when any is not permitted or none resolve. */
export async function checkedAddresses(t: CheckedTarget, field = 'webhook.url'): Promise<dns.LookupAddress[]> {
  const family = net.isIP(t.host);
  if (family !== 0) return [{ address: t.host, family }];
  let addresses: dns.LookupAddress[];
  try {
    addresses = await resolveAll(t.host);
  } catch (err) {
    throw new RefusedTarget(`${field}'s host does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (addresses.length === 0) throw new RefusedTarget(`${field}'s host does not resolve`);
  if (!t.byName) {
    const allow = allowed();
    const bad = addresses.find((a) => !permitted(a.address, allow));
    if (bad) throw new RefusedTarget(`${field}'s host resolves to an address that is not public (${bad.address})`);
  }
  return addresses;
}

/** The full check at creation: the URL, then every address its host resolves to. */
export async function checkTarget(raw: string, field = 'webhook.url'): Promise<CheckedTarget> {
  const t = parseTarget(raw, field);
  await checkedAddresses(t, field);
  return t;
}

/** Whether the target's host is allowed by name in ALERT_TARGETS_ALLOW, or its IP literal by range. */
export function listedByOperator(t: CheckedTarget): boolean {
  if (t.byName) return true;
  const family = net.isIP(t.host);
  return family !== 0 && allowed().ranges.check(t.host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A `lookup` for http(s).request that hands the socket only the addresses it has just checked (a name
 * re-resolving elsewhere between the creation check and now is refused here, at the connection itself).
 */
export function guardedLookup(t: CheckedTarget): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    checkedAddresses(t).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) return callback(new RefusedTarget('no address of the family asked for'));
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err) => callback(err),
    );
  }) as net.LookupFunction;
}

/** Whether a connected socket's peer is one the target may reach (the last check, on the connection itself). */
export function peerPermitted(t: CheckedTarget, address: string | undefined): boolean {
  if (t.byName) return true;
  return address !== undefined && permitted(address, allowed());
}
