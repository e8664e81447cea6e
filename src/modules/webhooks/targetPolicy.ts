import dns from 'node:dns';
import net from 'node:net';

/**
 * Where webhooks may not go unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on: loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges. A tenant's URL must not turn
 * this service into a way into its own network.
 */
const PRIVATE = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net4, bits, 'ipv4');
}
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(net6, bits, 'ipv6');

const EMBEDS_IPV4 = new net.BlockList();
EMBEDS_IPV4.addSubnet('::ffff:0:0', 96, 'ipv6');
EMBEDS_IPV4.addSubnet('64:ff9b::', 96, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) IPv6 address, in either notation. */
function embeddedIpv4(ip: string): string | null {
  if (!EMBEDS_IPV4.check(ip, 'ipv6')) return null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted) return dotted[1]!;
  const [hi, lo] = ip
    .split(':')
    .slice(-2)
    .map((g) => parseInt(g || '0', 16));
  return [hi! >> 8, hi! & 255, lo! >> 8, lo! & 255].join('.');
}

export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(ip);
  return v4 ? PRIVATE.check(v4, 'ipv4') : PRIVATE.check(ip, 'ipv6');
}

/**
 * Checked when a URL is saved: a private IP literal or a localhost name. A name that resolves to a private
 * address is refused when the request is made (guardedLookup), since DNS can change after saving.
 */
export function isPrivateUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIP(host)) return isPrivateAddress(host);
  return host === 'localhost' || host.endsWith('.localhost');
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A dns.lookup for outbound sockets that only ever connects to public addresses: the check happens at connect
 * time, on the address actually used, so a name re-pointed at an internal address after it was saved is refused.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves only to private addresses`);
      refused.code = 'EPRIVATETARGET';
      return callback(refused, []);
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}
