/**
 * `npm run mcp:coverage`: for each MCP server, which tools of the specification's catalog the service serves, which
 * are still missing (absent from tools/list, never stubbed), and which it serves beyond that catalog. Later families
 * add tools by adding operations.
 */
import { CATALOG } from '../src/modules/index.ts';
import type { McpServerName } from '../src/platform/catalog/types.ts';
import { DEVELOPER_SERVER_TOOLS, USER_SERVER_TOOLS } from '../api/mcp/specTools.ts';
import { SERVER_NAMES } from '../api/mcp/server.ts';
import { toolsOf } from '../api/mcp/tools.ts';
import { agentCatalog } from '../api/mcp/developerOperations.ts';
import { buildSchema } from '../api/graphql/schema.ts';

const specified: Record<McpServerName, readonly string[]> = {
  user: USER_SERVER_TOOLS.map((t) => t.name),
  developer: DEVELOPER_SERVER_TOOLS.map((t) => t.name),
};
const wrap = (names: readonly string[]) =>
  names.length === 0 ? '    (none)' : names.map((n) => `    ${n}`).join('\n');

for (const server of ['user', 'developer'] as const) {
  const served = toolsOf(
    agentCatalog(CATALOG, 'http://localhost', 'coverage', () => buildSchema(CATALOG)).operations,
    server,
  ).map((t) => t.name);
  const spec = specified[server];
  const present = spec.filter((n) => served.includes(n));
  const missing = spec.filter((n) => !served.includes(n));
  const extra = served.filter((n) => !spec.includes(n));
  process.stdout.write(
    `${SERVER_NAMES[server]} (${server} server): ${present.length} of the specification's ${spec.length} tools served, ${missing.length} missing, ${extra.length} more\n`,
  );
  process.stdout.write(
    `  served:\n${wrap(present)}\n  missing:\n${wrap(missing)}\n  beyond the specification's catalog:\n${wrap(extra)}\n\n`,
  );
}
