import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpendLedger } from '../../mcp/signing/spend-ledger.js';

describe('SpendLedger (daily cap on disk)', () => {
  let dir: string;
  let path: string;
  let now = Date.parse('2026-11-22T10:00:00Z');
  const clock = () => now;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-'));
    path = join(dir, 'nested', 'ledger.json');
    now = Date.parse('2026-11-22T10:00:00Z');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const entry = (id: string, lamports: bigint) => ({ id, lamports, kind: 'bid_place', auctionId: 'a' });

  it('reserves within the cap, refuses beyond it, survives a restart and resets on the next UTC day', async () => {
    const ledger = new SpendLedger(path, clock);
    expect(await ledger.reserve(entry('1', 600n), 1000n)).toEqual({ ok: true, spentToday: 600n });
    expect(await ledger.reserve(entry('2', 500n), 1000n)).toEqual({ ok: false, spentToday: 600n });
    expect(await new SpendLedger(path, clock).spentToday()).toBe(600n);
    await ledger.release('1');
    expect(await ledger.spentToday()).toBe(0n);
    await ledger.reserve(entry('3', 900n), 1000n);
    now = Date.parse('2026-11-23T00:00:01Z');
    expect(await ledger.spentToday()).toBe(0n);
  });

  it('serializes concurrent reservations: the cap holds', async () => {
    const ledger = new SpendLedger(path, clock);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ledger.reserve(entry(String(i), 300n), 1000n)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(await ledger.spentToday()).toBe(900n);
    expect(JSON.parse(await readFile(path, 'utf8')).entries).toHaveLength(3);
  });

  it('refuses to treat a corrupt file as an empty day', async () => {
    const ledger = new SpendLedger(path, clock);
    await ledger.reserve(entry('1', 1n), 10n);
    await writeFile(path, '{"day":"2026-11-22","entries":[{"id":1}]}');
    await expect(ledger.spentToday()).rejects.toThrow(/corrupt/);
  });
});
