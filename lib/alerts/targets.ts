import dns from 'node:dns';
import net from 'node:net';
import { targetsAllowed } from './config';
import { LOOKUP_DEADLINE_MS, LOOKUPS_AT_ONCE } from './model';

// No one is reached who did not ask, nothing inside is reached at all (decisions §28). A webhook URL is
// `https` on a public address: no userinfo, no IP literal or name resolving into a range that is not the
// public internet, in any spelling (the WHATWG URL parser turns `127.1`, `0x7f000001`, `2130706433` and
// `017700000001` into 127.0.0.1, which is what a client would connect to). Checked at creation, and again
// at each delivery against the addresses a connection may use: the request's `lookup` resolves, refuses
// the whole answer if any address is not public, and the socket connects only to an address it checked
// (no DNS rebinding between the check and the connection). `ALERT_TARGETS_ALLOW` lets an operator (and the
// tests) allow hosts by name or addresses by CIDR, over `http` too.
// A stranger's name is looked up by DNS queries of the process's own (c-ares, `dns.Resolver`), not by the system's
// getaddrinfo: those hold one of libuv's four threads (shared with compression and file work) until the system
// resolver gives up, however long that takes, and cannot be cancelled. Here each lookup has a deadline, after which its
// queries are cancelled, and at most LOOKUPS_AT_ONCE run at once in the process (decisions §33). A host the operator
// allows by name is theirs (a name in /etc/hosts, a container's): the system resolver looks it up.

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

/**
 * A name that does not resolve (no records, or none within the deadline): refused at creation like any RefusedTarget,
 * but at a delivery a network error like another, tried again (a resolver's trouble passes).
 */
export class Unresolved extends RefusedTarget {
  constructor(reason: string) {
    super(reason);
    this.name = 'Unresolved';
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

/** Every lookup slot is taken, and the caller would rather not wait (a creation answers 503 with Retry-After). */
export class LookupsBusy extends Error {
  constructor() {
    super('too many target names are being looked up at once');
    this.name = 'LookupsBusy';
  }
}

// The slots, once per process (each bundle's copy of this module counts in the same place).
const SLOT = Symbol.for('goldapi.alerts.lookups');
const slot = globalThis as { [SLOT]?: { running: number; waiting: (() => void)[] } };
const lookups = () => (slot[SLOT] ??= { running: 0, waiting: [] });

/** Runs `fn` in a lookup slot: at once when one is free, else after the lookups ahead of it (`wait`) or not at all (LookupsBusy). */
async function inLookupSlot<T>(wait: boolean, fn: () => Promise<T>): Promise<T> {
  const l = lookups();
  if (l.running < LOOKUPS_AT_ONCE) l.running++;
  else if (!wait) throw new LookupsBusy();
  // A slot is handed over by the lookup that ends (running stays as it is).
  else await new Promise<void>((r) => l.waiting.push(r));
  try {
    return await fn();
  } finally {
    const next = l.waiting.shift();
    if (next) next();
    else l.running--;
  }
}

/** The A and AAAA records of `host`, by DNS queries cancelled at `deadlineMs`. Throws Unresolved when none come. */
export async function queryAddresses(host: string, field: string, deadlineMs = LOOKUP_DEADLINE_MS): Promise<dns.LookupAddress[]> {
  const resolver = new dns.promises.Resolver({ timeout: Math.ceil(deadlineMs / 2), tries: 1 });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new Unresolved(`${field}'s host did not resolve within ${deadlineMs / 1000} s`));
    }, deadlineMs);
  });
  try {
    const [v4, v6] = await Promise.race([Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]), deadline]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const code = [v4, v6].map((r) => (r.status === 'rejected' ? (r.reason as NodeJS.ErrnoException).code : undefined)).find(Boolean);
    throw new Unresolved(`${field}'s host does not resolve${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
}

/** What the system resolver answers for a host the operator allows by name. */
function systemLookup(host: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(host, { all: true, order: 'verbatim' }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/**
 * The addresses a connection to `t` may use, each one checked; throws RefusedTarget when any is not permitted or none
 * resolve. `wait`: when every lookup slot is taken, wait for one (a delivery, whose own deadline bounds it) rather than
 * throw LookupsBusy (a creation).
 */
export async function checkedAddresses(t: CheckedTarget, field = 'webhook.url', wait = true): Promise<dns.LookupAddress[]> {
  const family = net.isIP(t.host);
  if (family !== 0) return [{ address: t.host, family }];
  if (t.byName) {
    try {
      return await systemLookup(t.host);
    } catch (err) {
      throw new Unresolved(`${field}'s host does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const addresses = await inLookupSlot(wait, () => queryAddresses(t.host, field));
  const allow = allowed();
  const bad = addresses.find((a) => !permitted(a.address, allow));
  if (bad) throw new RefusedTarget(`${field}'s host resolves to an address that is not public (${bad.address})`);
  return addresses;
}

/** The full check at creation: the URL, then every address its host resolves to (LookupsBusy when every lookup slot is taken). */
export async function checkTarget(raw: string, field = 'webhook.url'): Promise<CheckedTarget> {
  const t = parseTarget(raw, field);
  await checkedAddresses(t, field, false);
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
