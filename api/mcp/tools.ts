/**
 * The MCP tools, derived from the operation catalog (docs/mcp.md). The derivation lives in the platform
 * (src/platform/catalog/mcpTools.ts), where the Operations AI Agent's module reads the same tools.
 */
export { API_TOKEN, CONFIRM, toolsOf, type Tool } from '../../src/platform/catalog/mcpTools.ts';
