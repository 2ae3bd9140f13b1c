import ipaddr from 'ipaddr.js';

/**
 * How private a network address is, after the browsers' Private Network Access rule:
 * `public` < `private` (RFC 1918, IPv6 ULA, CGNAT and every other non-public range) < `local`
 * (loopback, and the unspecified address: a connection to `0.0.0.0` or `::` lands on this
 * machine). `link-local` (169.254.0.0/16, fe80::/10, and fd00:ec2::254, where cloud metadata
 * services answer) stands apart: no manifest may reach it unless the operator lists it.
 */
export type AddressClass = 'public' | 'private' | 'local' | 'link-local';

/** How private each class is, for "at least as private" comparisons (link-local: never reachable by rule). */
export const PRIVACY: Readonly<Record<AddressClass, number>> = { public: 0, private: 1, local: 2, 'link-local': 3 };

/** The AWS IPv6 instance-metadata address (inside the ULA range, but a metadata service). */
const IPV6_METADATA = ipaddr.parse('fd00:ec2::254');

/**
 * The IPv4 address an IPv6 address embeds, if any: IPv4-mapped `::ffff:0:0/96`, IPv4-translated
 * `::ffff:0:0:0/96`, IPv4-compatible `::/96` (deprecated, but `::` and `::1` are in it), NAT64
 * `64:ff9b::/96` and 6to4 `2002::/16`.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  const bytes = address.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052' || bytes.slice(0, 12).every((byte) => byte === 0)) {
    return ipaddr.fromByteArray(bytes.slice(12, 16)) as ipaddr.IPv4;
  }
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  return undefined;
}

function classOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const inner = embeddedIPv4(v6);
    if (inner !== undefined) return classOf(inner);
    if (v6.toNormalizedString() === IPV6_METADATA.toNormalizedString()) return 'link-local';
  }
  const range = address.range();
  if (range === 'unicast') return 'public';
  // The unspecified address (0.0.0.0/8; `::` embeds 0.0.0.0) as a destination is this machine on
  // Linux and macOS: loopback in effect, whatever the spelling ("0.0.0.0-day").
  if (range === 'loopback' || range === 'unspecified') return 'local';
  if (range === 'linkLocal') return 'link-local';
  return 'private'; // private, uniqueLocal, carrierGradeNat, reserved, multicast, broadcast ...
}

/**
 * Names that cloud metadata services answer on (GCP's and AWS's): link-local in
 * effect, whatever they resolve to, so no manifest reaches them unless the operator lists them.
 */
const METADATA_NAMES: ReadonlySet<string> = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/**
 * Suffixes of names that are private by definition (RFC 6761 `.localhost`, RFC 6762 `.local`
 * for mDNS, RFC 8375 `.home.arpa`, ICANN's reserved `.internal`) or by wide use (`.lan`): they
 * only resolve inside a private network, so they are private for the boundary on every
 * transport, before any address is known.
 */
const PRIVATE_SUFFIXES: readonly string[] = ['.local', '.internal', '.home.arpa', '.lan'];

/**
 * The class of a URL's host name as the URL parser leaves it (`new URL(...).hostname`: every
 * IPv4 spelling the parser accepts — `0xa9fea9fe`, `2852039166`, `169.254.0x0a9.254` — is already
 * dotted-quad; IPv6 is in brackets). By name: `localhost` and `*.localhost` are `local`; the
 * cloud metadata names are `link-local`; `*.local`, `*.internal`, `*.home.arpa` and `*.lan` are
 * `private`; any other name is `public` here (what it resolves to is the connect-time check's
 * business, on the transports that can make it). The one classifier of the network boundary:
 * other packages that check an operator's URL (rcp-oauth's token endpoint) use it too.
 *
 * @example
 * ```ts
 * import { classifyHost } from 'rcp-client';
 * classifyHost(new URL('http://[::ffff:169.254.169.254]/').hostname); // 'link-local'
 * classifyHost('metadata.google.internal'); // 'link-local'
 * classifyHost('127.0.0.1'); // 'local'
 * ```
 */
export function classifyHost(hostname: string): AddressClass {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(host)) return classOf(ipaddr.parse(host));
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (lower === 'localhost' || lower.endsWith('.localhost')) return 'local';
  if (METADATA_NAMES.has(lower)) return 'link-local';
  if (PRIVATE_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return 'private';
  return 'public';
}
