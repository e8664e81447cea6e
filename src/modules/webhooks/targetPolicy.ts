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
  ['fc00::', 7], // unique local
  ['fec0::', 10], // site-local, deprecated (RFC 3879) but still private wherever it is used
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  // NAT64 local-use prefix (RFC 8215). The operator picks the prefix length inside it, and with it where the IPv4
  // address sits (RFC 6052 layouts: /48 splits it around the u octet, /96 puts it in the last 32 bits), so no one
  // layout can be read; and it only exists inside the operator's own network: the whole /48 is private.
  ['64:ff9b:1::', 48],
] as const)
  PRIVATE.addSubnet(net6, bits, 'ipv6');

/** The 16 bytes of an address net.isIP calls IPv6, whatever its spelling: `::`, a dotted IPv4 tail, a zone id. */
function ipv6Bytes(ip: string): Buffer {
  const groups = (part: string) =>
    part
      .split(':')
      .filter(Boolean)
      .flatMap((g) => {
        if (!g.includes('.')) return [parseInt(g, 16)];
        const [a, b, c, d] = g.split('.').map(Number);
        return [(a! << 8) | b!, (c! << 8) | d!];
      });
  const [head = '', tail] = ip.replace(/%.*$/, '').split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = Buffer.alloc(16);
  words.forEach((w, i) => bytes.writeUInt16BE(w, 2 * i));
  return bytes;
}

/**
 * IPv6 forms that carry an IPv4 address and can end up at it (through the dual-stack socket, a translator or a
 * tunnel): an address of these is as private as the IPv4 address it embeds, the 4 bytes from `at`, XORed with
 * `flip`. Every prefix ends on a byte.
 */
const EMBEDDED_IPV4 = [
  { prefix: '::ffff:0:0', bits: 96, at: 12, flip: 0 }, // IPv4-mapped (RFC 4291)
  { prefix: '::', bits: 96, at: 12, flip: 0 }, // IPv4-compatible, deprecated (RFC 4291)
  { prefix: '::ffff:0:0:0', bits: 96, at: 12, flip: 0 }, // IPv4-translated (RFC 2765)
  { prefix: '64:ff9b::', bits: 96, at: 12, flip: 0 }, // NAT64 well-known prefix (RFC 6052)
  { prefix: '2002::', bits: 16, at: 2, flip: 0 }, // 6to4 (RFC 3056)
  { prefix: '2001::', bits: 32, at: 4, flip: 0 }, // Teredo server (RFC 4380)
  { prefix: '2001::', bits: 32, at: 12, flip: 0xff }, // Teredo client, stored inverted
].map((form) => ({ ...form, prefix: ipv6Bytes(form.prefix).subarray(0, form.bits / 8) }));

function embeddedIpv4s(bytes: Buffer): string[] {
  return EMBEDDED_IPV4.filter((form) => bytes.subarray(0, form.prefix.length).equals(form.prefix)).map((form) =>
    Array.from(bytes.subarray(form.at, form.at + 4), (byte) => byte ^ form.flip).join('.'),
  );
}

/** Any spelling: IPv6 in upper or lower case, with or without a zone id, and every form that embeds an IPv4 address. */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIpv4s(ipv6Bytes(ip));
  if (embedded.length > 0) return embedded.some((v4) => PRIVATE.check(v4, 'ipv4'));
  return PRIVATE.check(ip.replace(/%.*$/, ''), 'ipv6');
}

/**
 * A private IP literal or a localhost name: checked when a URL is saved, and again by the sender before every
 * request, since a literal is dialled without a lookup and so never meets guardedLookup. A name that resolves to a
 * private address is refused when the request is made (guardedLookup), since DNS can change after saving.
 * The URL parser has already turned the other IPv4 spellings (0x7f.1, 2130706433, 0177.0.0.1) into dotted decimal,
 * written IPv6 in lower case and refused zone ids; a trailing dot (localhost.) still names the same host.
 */
export function isPrivateUrl(url: string): boolean {
  const host = new URL(url).hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
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
