import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export interface SpawnedRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export class RedisServerNotInstalledError extends Error {
  override readonly name = 'RedisServerNotInstalledError';
  constructor() {
    super(
      'redis-server was not found on PATH. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`, ' +
        'macOS: `brew install redis`) or set REDIS_URL to a running Redis.',
    );
  }
}

export function isRedisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a private, non-persistent redis-server on a free loopback port and resolves once it
 * accepts connections. Used by the tests and by `npm run dev` when REDIS_URL is unset.
 */
export async function spawnRedisServer(options: { appendOnlyDir?: string } = {}): Promise<SpawnedRedis> {
  if (!isRedisServerInstalled()) throw new RedisServerNotInstalledError();
  const port = await freePort();
  const persistence = options.appendOnlyDir
    ? ['--appendonly', 'yes', '--dir', options.appendOnlyDir]
    : ['--appendonly', 'no', '--save', ''];
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--maxmemory-policy', 'noeviction', ...persistence],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited with code ${code}: ${output.slice(-500)}`)),
    );
    child.once('error', reject);
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
