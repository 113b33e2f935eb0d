/**
 * npm run agents -- <command>
 *   run <config.json>            start the config's strategies (same ids resume) and run them here
 *   status [id] [--config file]  list instances (or one, with its decision log)
 *   stop <id> [--config file]    stop one instance
 *   kill [--off] [--config file] kill switch: no runner bids any more, every instance stops
 *   backtest <history.json>      replay a recorded history with a virtual clock
 * Redis comes from the config file, else REDIS_URL and REDIS_PREFIX (default redis://127.0.0.1:6379, "sns:").
 */
import { readFile } from 'node:fs/promises';
import { formatSol } from '../src/core/money.js';
import { runBacktestFile } from './backtest/backtest-cli.js';
import { createAgentsControl, type InstanceSummary } from './runner/control.js';
import type { RunnerEvent } from './runner/runner.js';
import { RunnerConfigSchema, startRuntime } from './runner/runtime.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const time = () => new Date().toISOString().slice(11, 23);

async function loadConfig(path: string) {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read config ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = RunnerConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `config ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function redisTarget(args: string[]) {
  const file = option(args, '--config');
  if (file) {
    const c = await loadConfig(file);
    return { redisUrl: c.redisUrl, redisPrefix: c.redisPrefix };
  }
  return {
    redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    redisPrefix: process.env['REDIS_PREFIX'] ?? 'sns:',
  };
}

const describe = (s: InstanceSummary) =>
  `${s.id.padEnd(24)} ${s.strategy.padEnd(14)} ${s.mode.padEnd(6)} ${(s.outcome ?? s.status).padEnd(8)} bids=${s.bids.length}` +
  (s.bids.length ? ` last=${s.bids.at(-1)!.amountSol} SOL` : '') +
  (s.nextWakeAt ? ` next=${new Date(s.nextWakeAt).toISOString()}` : '') +
  (s.reason ? `  (${s.reason})` : '');

function printEvent(e: RunnerEvent): void {
  out(eventLine(e));
}

function eventLine(e: RunnerEvent): string {
  switch (e.type) {
    case 'bid':
      return `${time()} BID   ${e.instanceId} ${e.auctionId.slice(0, 8)}… ${formatSol(e.amount)} SOL ${e.signature ? `tx ${e.signature.slice(0, 12)}…` : '(paper)'}`;
    case 'bid_failed':
      return `${time()} MISS  ${e.instanceId} ${formatSol(e.amount)} SOL: ${e.reason}`;
    case 'done':
      return `${time()} DONE  ${e.instanceId}: ${e.outcome} (${e.reason})`;
    case 'error':
      return `${time()} ERROR ${e.instanceId}: ${e.message}`;
  }
}

async function run(path: string): Promise<void> {
  const cfg = await loadConfig(path);
  const rt = await startRuntime(cfg, { onEvent: printEvent });
  const ids: string[] = [];
  for (const spec of cfg.strategies) ids.push((await rt.control.startStrategy(spec)).id);
  out(
    `${time()} runner up: wallet ${rt.wallet}, ${ids.length} strateg${ids.length === 1 ? 'y' : 'ies'} from ${path}`,
  );
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Bounded drain: an evaluation left running resumes from Redis in the next runner.
    await Promise.race([rt.close(), new Promise((r) => setTimeout(r, 5_000))]);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    const list = await rt.control.listStrategies();
    const mine = list.filter((s) => ids.includes(s.id));
    if (ids.length > 0 && mine.every((s) => s.status !== 'running')) {
      for (const s of mine) out(describe(s));
      return shutdown(0);
    }
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, arg, ...rest] = argv;
  switch (command) {
    case 'run':
      if (!arg) throw new Error('usage: agents run <config.json>');
      return run(arg);
    case 'status':
    case 'stop':
    case 'kill': {
      const args = [arg ?? '', ...rest];
      const control = await createAgentsControl(await redisTarget(args));
      try {
        if (command === 'stop') {
          if (!arg || arg.startsWith('--')) throw new Error('usage: agents stop <id>');
          const s = await control.stopStrategy(arg);
          out(s ? describe(s) : `no instance ${arg}`);
        } else if (command === 'kill') {
          const r = await control.killSwitch(!args.includes('--off'));
          out(`kill switch ${r.killSwitch ? 'ON' : 'off'}; ${r.running} instance(s) were running`);
        } else if (arg && !arg.startsWith('--')) {
          const s = await control.getStrategy(arg);
          out(s ? JSON.stringify(s, null, 2) : `no instance ${arg}`);
        } else {
          const list = await control.listStrategies();
          out(list.length ? list.map(describe).join('\n') : 'no strategy instances');
        }
      } finally {
        await control.close();
      }
      return;
    }
    case 'backtest':
      if (!arg) throw new Error('usage: agents backtest <history.json>');
      return runBacktestFile(arg, out);
    default:
      out(
        'usage: agents run <config.json> | status [id] | stop <id> | kill [--off] | backtest <history.json>',
      );
      process.exitCode = command ? 2 : 0;
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
