/** Tool results: structuredContent for programs, the same JSON as text for models (spec SHOULD). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResult } from './errors.js';

export function okResult(structured: Record<string, unknown>, headline?: string): CallToolResult {
  const json = JSON.stringify(structured);
  return {
    content: [{ type: 'text', text: headline ? `${headline}\n${json}` : json }],
    structuredContent: structured,
  };
}

/** Runs a tool body; any failure becomes an isError result naming `action`. */
export async function guarded(action: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (e) {
    return toErrorResult(e, action);
  }
}
