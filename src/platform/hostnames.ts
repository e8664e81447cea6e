import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** Names that only ever reach this machine: always among the host names the API answers to. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * The host name of a Host header, an Origin or a URL, as a URL spells it (lower case, IPv6 in brackets, no port);
 * null when it names none (an empty header, `*`, a bare scheme).
 */
export function hostnameOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  try {
    const hostname = new URL(
      text.includes('://') ? text : `http://${net.isIPv6(text) ? `[${text}]` : text}`,
    ).hostname.replace(/\.$/, '');
    return hostname || null;
  } catch {
    return null;
  }
}

/** A host name as an operator writes it in ALLOWED_HOSTS: a name or an address, with a port or without. */
export function isHostEntry(value: string): boolean {
  const entry = net.isIPv6(value) || /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)(:\d{1,5})?$/i.test(value);
  return entry && hostnameOf(value) !== null;
}

/** A URL this process reaches a listener of its own at: a wildcard address is reached through loopback. */
export function localUrl({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return `http://127.0.0.1:${port}`;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}
