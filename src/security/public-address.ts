import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the server may connect to on a stranger's say-so (a client_id metadata document URL, a client's
 * jwks_uri): only globally routable unicast ones. Everything in the IANA special-purpose registries is refused —
 * loopback, private, carrier-grade NAT, link-local (169.254.169.254 is the cloud's metadata service), documentation,
 * benchmarking, multicast, reserved, unspecified — in IPv4 and in IPv6, and an IPv4 address written inside an IPv6
 * one (::ffff:127.0.0.1, 64:ff9b::a00:1) is judged as the IPv4 address it reaches.
 */
const SPECIAL_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", with the unspecified 0.0.0.0 (which Linux connects to as loopback)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** Special-use ranges inside 2000::/3, the only IPv6 block handed out as global unicast. */
const SPECIAL_IPV6: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID…
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, which tunnels to any IPv4 address
  ['3fff::', 20], // documentation
];

const special4 = new BlockList();
for (const [network, prefix] of SPECIAL_IPV4) special4.addSubnet(network, prefix, 'ipv4');
const globalUnicast6 = new BlockList();
globalUnicast6.addSubnet('2000::', 3, 'ipv6');
const special6 = new BlockList();
for (const [network, prefix] of SPECIAL_IPV6) special6.addSubnet(network, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (which `isIP` has accepted), a trailing dotted quad included. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    tail.push(
      ...text
        .slice(lastColon + 1)
        .split('.')
        .map(Number),
    );
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address carries, if it is one. */
function embeddedIpv4(bytes: number[]): string | undefined {
  const prefix = bytes.slice(0, 12).join(',');
  if (prefix === '0,0,0,0,0,0,0,0,0,0,255,255' || prefix === '0,100,255,155,0,0,0,0,0,0,0,0')
    return bytes.slice(12).join('.');
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  // A zone (fe80::1%eth0) only ever comes with a link-local address.
  const bare = address.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 4) return !special4.check(bare, 'ipv4');
  if (family !== 6 || bare !== address) return false;
  const mapped = embeddedIpv4(ipv6Bytes(bare));
  if (mapped !== undefined) return isPublicAddress(mapped);
  return globalUnicast6.check(bare, 'ipv6') && !special6.check(bare, 'ipv6');
}

/**
 * Whether a URL's host (as `new URL()` gives it: `[::1]` bracketed) is an IP address rather than a name. The WHATWG
 * parser has already turned every other way of writing an IPv4 address (2130706433, 127.1, 0x7f.1, 0177.0.0.1) into
 * its dotted form, so this sees them all.
 */
export function isIpLiteral(hostname: string): boolean {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0;
}
