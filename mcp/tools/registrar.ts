import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from '../context.js';

/**
 * Adds tools (or resources, prompts) to a server. The built-in groups are registrars, and
 * buildMcpServer accepts more, e.g. the strategy runner's controls.
 */
export type ToolRegistrar = (server: McpServer, ctx: McpContext) => void;
