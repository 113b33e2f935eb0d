/**
 * Strategies and the budget math are pure: the same code runs live, on paper and in a backtest
 * only if it reads no clock and does no I/O. Checked on the source, like src/core.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const AGENTS = join(import.meta.dirname, '../../agents');
const PURE = [
  'strategy.ts',
  'auction-view.ts',
  'budget/bid-budget.ts',
  ...readdirSync(join(AGENTS, 'strategies')).map((f) => `strategies/${f}`),
];
const FORBIDDEN_IMPORTS = [
  /^@solana\//,
  /^fastify/,
  /^ioredis/,
  /^bullmq/,
  /^pino/,
  /^node:/,
  /\/runner\//,
  /\/client\/sns-auction-client/,
];
const FORBIDDEN_CALLS = [
  /\bDate\.now\(/,
  /\bnew Date\(/,
  /\bprocess\.env\b/,
  /\bperformance\.now\(/,
  /\bMath\.random\(/,
  /\bsetTimeout\(/,
  /\bfetch\(/,
];

describe('agents strategies are pure', () => {
  it.each(PURE)('%s imports no adapter and reads no clock', (file) => {
    const source = readFileSync(join(AGENTS, file), 'utf8');
    // Type-only imports vanish at runtime: a strategy may name the client's types.
    const valueImports = [...source.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms)].map((m) => m[1]!);
    expect(valueImports.filter((i) => FORBIDDEN_IMPORTS.some((re) => re.test(i)))).toEqual([]);
    expect(FORBIDDEN_CALLS.filter((re) => re.test(source)).map(String)).toEqual([]);
  });
});
