import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { z } from 'zod';

const KeypairFileSchema = z.array(z.number().int().min(0).max(255)).length(64);

/** Reads a solana-keygen JSON keypair (an array of 64 byte values). Errors name the file, never its content. */
export async function readKeypairFile(path: string): Promise<Keypair> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read keypair file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`keypair file ${path} is not JSON (expected solana-keygen's array of 64 numbers)`);
  }
  const parsed = KeypairFileSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`keypair file ${path} must hold an array of 64 byte values (solana-keygen format)`);
  try {
    return Keypair.fromSecretKey(Uint8Array.from(parsed.data));
  } catch {
    throw new Error(`keypair file ${path} holds an invalid ed25519 secret key`);
  }
}

/** Reads the keypair at `path`, or creates one there (mode 0600) when the file does not exist. */
export async function readOrCreateKeypairFile(path: string): Promise<{ keypair: Keypair; created: boolean }> {
  try {
    return { keypair: await readKeypairFile(path), created: false };
  } catch (err) {
    if (!(err instanceof Error) || !err.message.includes('ENOENT')) throw err;
  }
  const keypair = Keypair.generate();
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  await writeFile(temp, JSON.stringify(Array.from(keypair.secretKey)), { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
  return { keypair, created: true };
}
