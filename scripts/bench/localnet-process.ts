/** The embedded localnet in its own process, as a remote RPC node would be, for the benchmarks. */
import { type ChildProcess, spawn } from 'node:child_process';

export interface LocalnetProcess {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  stop(): Promise<void>;
}

/** `extraArgs` go to src/localnet/cli.ts (e.g. `--keeper FILE`). */
export async function startLocalnetProcess(extraArgs: readonly string[] = []): Promise<LocalnetProcess> {
  // node itself (not npx), so that killing `child` stops the localnet rather than a wrapper.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/localnet/cli.ts', '--port', '0', ...extraArgs],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  const urls = await new Promise<{ rpcUrl: string; wsUrl: string }>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const rpc = /(http:\/\/[\d.]+:\d+)/.exec(output);
      const ws = /(ws:\/\/[\d.]+:\d+)/.exec(output);
      if (rpc && ws) resolve({ rpcUrl: rpc[1]!, wsUrl: ws[1]! });
    });
    child.once('exit', (code) => reject(new Error(`localnet exited (${code}): ${output}`)));
  });
  return {
    ...urls,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One JSON-RPC call (for the localnet_* methods web3.js does not know). */
export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
