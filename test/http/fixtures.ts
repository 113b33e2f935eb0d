import { Keypair } from '@solana/web3.js';
import { expect } from 'vitest';
import { type ApiResponse, call } from '../helpers/api.js';

export const randomWallet = () => Keypair.generate().publicKey.toBase58();

export interface CreatedKey {
  readonly key: string;
  readonly id: string;
  readonly walletAddress: string;
}

/** POST /keys/create; with `using` the new key joins that key's account, without it bootstraps one. */
export async function createKey(
  baseUrl: string,
  options: { type?: 'agent' | 'developer' | 'readonly'; using?: string; name?: string } = {},
): Promise<CreatedKey> {
  const walletAddress = randomWallet();
  const { status, body } = await call<CreatedKey>(baseUrl, 'POST', '/keys/create', {
    key: options.using,
    body: { name: options.name ?? 'test key', type: options.type ?? 'developer', walletAddress },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** The spec's error envelope, with the code and a message matching `error`. */
export function expectError(
  response: ApiResponse<unknown>,
  status: number,
  code: string,
  error?: RegExp | string,
) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ success: false, code, error: expect.any(String) });
  expect(Number.isInteger(response.body.timestamp)).toBe(true);
  expect(response.body).not.toHaveProperty('data');
  if (error !== undefined) expect(response.body.error).toMatch(error);
}
