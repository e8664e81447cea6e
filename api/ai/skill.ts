/**
 * The integration skill file (`/api/ai-skill`): what an agent reads before it calls anything here. Written for
 * agents, generated with the catalog's tools, and versioned by the hash of the text served.
 */
import { createHash } from 'node:crypto';
import type { Operation } from '../../src/platform/catalog/types.ts';
import { PROFILES } from '../mcp/grant.ts';
import { toolsOf } from '../mcp/tools.ts';

export interface Skill {
  text: string;
  version: string;
  hash: string;
}

export function skillFile(catalog: readonly Operation[], base: string, version: string): Skill {
  const high = (['user', 'developer'] as const)
    .flatMap((s) => toolsOf(catalog, s))
    .filter((t) => t.op.mcp.risk === 'high')
    .map((t) => t.name);
  const text = [
    '---',
    'name: transport-management-service',
    `description: Use the Transport Management Service (orders, carrier distribution, lockers, OTEP tracking, webhooks) through its MCP servers at ${base}/mcp and ${base}/mcp/developer.`,
    '---',
    '',
    '# Working with the Transport Management Service',
    '',
    '## Sign in',
    `1. Get a token: POST ${base}/api/v1/user/login with {"email", "password"}; the answer's access_token lasts 24 hours by default.`,
    '2. Send it in the connection header, `Authorization: Bearer <token>`. Never put it in tool arguments or prompts.',
    '3. Public tools (tracking, OTEP timelines and validation) need no token.',
    '',
    '## Pick the narrowest profile',
    'Send `X-MCP-Profile` with one of these, or `X-MCP-Scopes` with the exact scopes (it overrides the profile):',
    ...Object.entries(PROFILES).map(
      ([name, scopes]) => `- ${name}: ${scopes === '*' ? 'every tool (not for unattended agents)' : scopes.join(', ')}`,
    ),
    'A tool outside your scopes answers MISSING_SCOPE naming the scope you lack: ask for it, do not work around it.',
    '',
    '## Confirm, preview, or ask a person',
    `- High-risk tools do nothing without \`confirm: true\` in their arguments (CONFIRMATION_REQUIRED otherwise): ${high.join(', ') || 'none today'}.`,
    '- Before a risky write, a person can approve it: call propose_write {tool, arguments, reason}, or send `X-MCP-Require-Approval: 1` and call the tool as usual. Nothing is done until another person of your business approves it (list_pending_approvals, approve_pending_write with confirm: true, or the page /mcp-approvals); follow it with get_approval. The approved write runs with your scopes, never more.',
    '- `X-MCP-Dry-Run: 1` on the connection previews write tools: the answer lists the rows, events and workflows the call would make, and nothing is done.',
    '',
    '## Read errors',
    'A failed tool call is a result with isError true whose text is {"result": false, "code", "message", "errors"?}; `errors` names each bad argument. Fix the named fields; do not retry unchanged.',
    '',
    '## Verify webhooks',
    "Every webhook is signed with your endpoint's secret. Verify the raw body before trusting it: the verify_webhook_signature tool, or POST /api/v1/webhooks/verify, names the check that failed (digest, timestamp, signature). Deduplicate on the event id.",
    '',
    '## Stay current',
    `This file is version ${version}; GET ${base}/api/ai-skill/version answers its hash, and check_skill_update compares yours.`,
    '',
  ].join('\n');
  return { text, version, hash: `sha256:${createHash('sha256').update(text).digest('hex')}` };
}
