/**
 * `npm run localnet -- [--port 8899] [--snapshot FILE] [--keeper FILE] [--fee-bps N] [--host H] [--slot-ms MS]`
 * Runs the embedded localnet until SIGINT/SIGTERM, saving the snapshot on the way out.
 */
import { parseArgs } from 'node:util';
import type { Keypair } from '@solana/web3.js';
import { pino } from 'pino';
import { readOrCreateKeypairFile } from '../chain/keypair-file.js';
import { startLocalnet } from './localnet.js';
import { configAddress } from './runtime/genesis.js';

const USAGE = `usage: npm run localnet -- [options]
  --port N        JSON-RPC port (default 8899; the websocket listens on N+1)
  --host H        interface to listen on (default 127.0.0.1)
  --snapshot F    load the chain from F if it exists; save it there on exit and every few seconds
  --keeper F      solana-keygen keypair file for the keeper (created if missing)
  --fee-bps N     platform fee written to the Config at genesis (default 0)
  --slot-ms N     slot length in milliseconds (default 400)
  --help          show this help`;

function fail(message: string): never {
  console.error(`localnet: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integerOption(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    fail(`--${name} must be an integer between ${min} and ${max}`);
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        snapshot: { type: 'string' },
        keeper: { type: 'string' },
        'fee-bps': { type: 'string' },
        'slot-ms': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values['help']) {
    console.log(USAGE);
    return;
  }
  const str = (name: string) => values[name] as string | undefined;
  const rpcPort = integerOption(str('port'), 'port', 0, 65_534) ?? 8899;
  const feeBps = integerOption(str('fee-bps'), 'fee-bps', 0, 10_000);
  const slotMs = integerOption(str('slot-ms'), 'slot-ms', 10, 60_000);
  let keeper: Keypair | undefined;
  const keeperFile = str('keeper');
  if (keeperFile) {
    try {
      keeper = (await readOrCreateKeypairFile(keeperFile)).keypair;
    } catch (err) {
      fail((err as Error).message);
    }
  }

  const logger = pino({ level: 'warn' });
  const net = await startLocalnet({
    rpcPort,
    host: str('host') ?? '127.0.0.1',
    keeper,
    feeBps,
    slotMs,
    snapshotFile: str('snapshot'),
    logger,
  });
  console.log(`sns-auction localnet
  RPC:        ${net.rpcUrl}
  WebSocket:  ${net.wsUrl}
  Program id: ${net.programId.toBase58()}
  Config:     ${configAddress()[0]}
  Keeper:     ${net.keeper.publicKey.toBase58()}${keeperFile ? ` (${keeperFile})` : ''}
  Treasury:   ${net.treasury.toBase58()}${str('snapshot') ? `\n  Snapshot:   ${str('snapshot')}` : ''}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n${signal}: stopping the localnet…`);
    net.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('localnet: shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  console.error(
    `localnet: ${code === 'EADDRINUSE' ? 'port already in use' : 'failed to start'}: ${(err as Error).message}`,
  );
  process.exit(1);
});
