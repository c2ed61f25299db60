// Server-side request forgery: a webhook URL must not reach the store's own machine or
// network. A host that is, or resolves to, a loopback, private, link-local, unique-local,
// unspecified (or multicast, reserved) address is refused, when the endpoint is saved and again
// when each delivery connects, to the address that was checked (so a DNS answer cannot change
// between check and connect). The WHATWG URL parser already turns every IPv4 spelling
// (`2130706433`, `0x7f.1`, `0177.0.0.1`) into dotted decimal, and IPv6 into its short form.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  refused.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return undefined;
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...left, ...Array(Math.max(0, missing)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

/** Whether a literal IP address is one a webhook may not reach. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: nothing to connect to
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined && refused.check(v4, 'ipv4')) return true;
  return refused.check(address, 'ipv6');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses; the delivery's dependencies carry one, so tests can answer for a name. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** The URL's host without IPv6 brackets (`[::1]` → `::1`). */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type AddressCheck =
  | { ok: true; address: ResolvedAddress }
  | { ok: false; reason: 'url_not_allowed' | 'dns_failed'; detail: string };

/**
 * The address a delivery will connect to: the host itself when it is an IP literal, else the
 * resolver's first answer. Refused when any answer is a forbidden address (unless private
 * addresses are allowed), so a name that mixes public and private answers cannot pick one later.
 */
export async function checkedAddress(
  url: URL,
  opts: { resolve: Resolver; allowPrivate: boolean },
): Promise<AddressCheck> {
  const host = bareHost(url);
  let answers: ResolvedAddress[];
  const family = isIP(host);
  if (family) answers = [{ address: host, family: family === 6 ? 6 : 4 }];
  else {
    try {
      answers = await opts.resolve(host);
    } catch (error) {
      return {
        ok: false,
        reason: 'dns_failed',
        detail: error instanceof Error ? error.message : String(error),
      };
    }
    if (!answers.length) return { ok: false, reason: 'dns_failed', detail: `${host} has no address` };
  }
  if (!opts.allowPrivate) {
    const bad = answers.find((a) => isRefusedAddress(a.address));
    if (bad)
      return { ok: false, reason: 'url_not_allowed', detail: `${host} is or resolves to ${bad.address}` };
  }
  return { ok: true, address: answers[0]! };
}
