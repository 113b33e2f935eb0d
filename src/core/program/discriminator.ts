import { createHash } from 'node:crypto';

/** Anchor-style 8-byte discriminators: sha256("<namespace>:<name>")[0..8]. */
function discriminator(preimage: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(preimage).digest().subarray(0, 8));
}

export const accountDiscriminator = (name: string) => discriminator(`account:${name}`);
export const instructionDiscriminator = (snakeName: string) => discriminator(`global:${snakeName}`);
export const eventDiscriminator = (name: string) => discriminator(`event:${name}`);

export function hasDiscriminator(data: Uint8Array, disc: Uint8Array): boolean {
  if (data.length < 8) return false;
  for (let i = 0; i < 8; i++) if (data[i] !== disc[i]) return false;
  return true;
}
