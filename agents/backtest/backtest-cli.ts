/** `agents backtest <history.json>`: replays the file and prints a readable report. */
import { readFile } from 'node:fs/promises';
import { formatSol } from '../../src/core/money.js';
import { HistorySchema } from './history.js';
import { replay } from './replay.js';

export async function runBacktestFile(path: string, out: (line: string) => void): Promise<void> {
  const parsed = HistorySchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `history ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const r = replay(parsed.data);
  out(`backtest of ${path}: ${parsed.data.auctions.length} auction(s), ${r.instances.length} instance(s)`);
  for (const i of r.instances) {
    const bids = i.bids
      .map((b) => `${formatSol(BigInt(b.amount))}@${new Date(b.now).toISOString().slice(11, 19)}`)
      .join(' ');
    out(
      `  ${i.id.padEnd(20)} ${i.strategy.padEnd(14)} ${(i.outcome ?? 'open').padEnd(8)} ${bids || 'no bids'}`,
    );
  }
  out(
    `wins ${r.wins}/${r.instances.length}, bids used ${r.bidsUsed}, max ${r.maxBidsPerMinute}/min (limit 60), external bids dropped ${r.droppedExternalBids}`,
  );
  out(
    r.differences.length === 0
      ? 'matches the live decisions'
      : `differs from live:\n  ${r.differences.join('\n  ')}`,
  );
}
