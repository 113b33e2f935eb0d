/**
 * The daily SOL cap's memory: what the wallet signed for today (UTC), persisted in a JSON file so a
 * restart of the MCP server does not reset the cap. Writes are atomic (temp file + rename) and
 * serialized in-process, so "check the cap, then reserve" cannot interleave between two calls.
 * One file per wallet is assumed (one MCP server process per wallet).
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

export interface SpendEntry {
  readonly id: string;
  readonly lamports: bigint;
  readonly kind: string;
  readonly auctionId: string | null;
  readonly atMs: number;
}

const FileSchema = z.object({
  day: z.string(),
  entries: z.array(
    z.object({
      id: z.string(),
      lamports: z.string().regex(/^\d+$/),
      kind: z.string(),
      auctionId: z.string().nullable(),
      atMs: z.number(),
    }),
  ),
});

export type ReserveResult =
  | { readonly ok: true; readonly spentToday: bigint }
  | { readonly ok: false; readonly spentToday: bigint };

export class SpendLedger {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Lamports recorded for today's UTC day. */
  spentToday(): Promise<bigint> {
    return this.#exclusive(async () => total(await this.#load()));
  }

  /** Adds `entry` only if today's total stays within `capLamports`; nothing is written otherwise. */
  reserve(entry: Omit<SpendEntry, 'atMs'>, capLamports: bigint): Promise<ReserveResult> {
    return this.#exclusive(async () => {
      const entries = await this.#load();
      const spent = total(entries);
      if (spent + entry.lamports > capLamports) return { ok: false, spentToday: spent };
      entries.push({ ...entry, atMs: this.nowMs() });
      await this.#save(entries);
      return { ok: true, spentToday: spent + entry.lamports };
    });
  }

  /** Removes a reservation whose transaction certainly did not land (refused in preflight, expired). */
  release(id: string): Promise<void> {
    return this.#exclusive(async () => {
      const entries = await this.#load();
      const kept = entries.filter((e) => e.id !== id);
      if (kept.length !== entries.length) await this.#save(kept);
    });
  }

  #today(): string {
    return new Date(this.nowMs()).toISOString().slice(0, 10);
  }

  async #load(): Promise<SpendEntry[]> {
    let raw: string;
    try {
      raw = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = null;
    }
    const parsed = FileSchema.safeParse(json);
    // A corrupt ledger must not silently reset the cap to zero.
    if (!parsed.success) throw new Error(`spend ledger ${this.path} is corrupt; fix or delete it`);
    if (parsed.data.day !== this.#today()) return [];
    return parsed.data.entries.map((e) => ({ ...e, lamports: BigInt(e.lamports) }));
  }

  async #save(entries: readonly SpendEntry[]): Promise<void> {
    const body = {
      day: this.#today(),
      entries: entries.map((e) => ({ ...e, lamports: e.lamports.toString() })),
    };
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.tmp-${process.pid}`;
    await writeFile(temp, JSON.stringify(body, null, 2), { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, this.path);
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

function total(entries: readonly SpendEntry[]): bigint {
  return entries.reduce((sum, e) => sum + e.lamports, 0n);
}
