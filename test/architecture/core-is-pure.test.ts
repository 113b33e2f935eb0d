import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The core holds the auction rules, money, time and codecs: no I/O, no clock reads, no adapters.
const CORE = join(import.meta.dirname, '../../src/core');
const FORBIDDEN_IMPORTS = [
  /^@solana\//,
  /^fastify/,
  /^ioredis/,
  /^bullmq/,
  /^pino/,
  /^ws$/,
  /^node:(fs|net|http|https|child_process|dgram|dns)/,
];
const FORBIDDEN_CALLS = [
  /\bDate\.now\(/,
  /\bnew Date\(\)/,
  /\bprocess\.env\b/,
  /\bperformance\.now\(/,
  /\bMath\.random\(/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('src/core is pure', () => {
  const files = sourceFiles(CORE);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [relative(CORE, f), f]))(
    '%s imports no adapter and reads no clock',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      expect(imports.filter((i) => FORBIDDEN_IMPORTS.some((re) => re.test(i)))).toEqual([]);
      expect(FORBIDDEN_CALLS.filter((re) => re.test(source)).map(String)).toEqual([]);
    },
  );
});
