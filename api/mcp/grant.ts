/**
 * What an agent's connection may do, from its headers (docs/mcp.md): `X-MCP-Scopes` (explicit scopes) overrides
 * `X-MCP-Profile` (one of the specification's seven profiles); with neither, legacy full access.
 */
import type { AgentGrant } from '../../src/platform/catalog/types.ts';

const OPS_READ = [
  'orders:read',
  'labels:read',
  'routes:read',
  'drivers:read',
  'analytics:read',
  'address:read',
  'approvals:read',
];

/** The specification's profiles and their scopes (Authentication 5). */
export const PROFILES: Record<string, '*' | readonly string[]> = {
  'ops-readonly': OPS_READ,
  support: ['orders:read', 'analytics:read', 'address:read', 'approvals:read'],
  'ops-write': [...OPS_READ, 'orders:write', 'labels:write', 'routes:write', 'approvals:write'],
  'wms-readonly': ['wms:read', 'orders:read'],
  'datasets-readonly': ['datasets:read'],
  'alliance-readonly': ['alliance:read'],
  full: '*',
};

const SCOPE = /^[a-z_]+:(read|write)$/;

/** The scopes of a connection, or why its headers name none. */
export function scopesOf(headers: {
  profile?: string;
  scopes?: string;
}): { scopes: AgentGrant['scopes'] } | { invalid: string } {
  if (headers.scopes !== undefined) {
    const scopes = headers.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = scopes.find((s) => s !== '*' && !SCOPE.test(s));
    if (bad !== undefined)
      return { invalid: `X-MCP-Scopes names "${bad.slice(0, 40)}", not a scope such as orders:read` };
    return { scopes: scopes.includes('*') ? '*' : scopes };
  }
  if (headers.profile !== undefined) {
    const name = headers.profile.trim();
    return Object.hasOwn(PROFILES, name)
      ? { scopes: PROFILES[name]! }
      : { invalid: `X-MCP-Profile names no profile; the profiles are ${Object.keys(PROFILES).join(', ')}` };
  }
  return { scopes: '*' };
}
