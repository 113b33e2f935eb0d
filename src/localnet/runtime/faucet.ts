import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { ComputeBudgetProgram, type Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import type { Address } from '../../core/address.js';

// DER PKCS#8 header of an Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The airdrop faucet: signs System transfers from its own funded account. */
export class Faucet {
  private readonly privateKey: KeyObject;
  private requests = 0;

  constructor(readonly keypair: Keypair) {
    const der = Buffer.concat([ED25519_PKCS8_PREFIX, keypair.secretKey.subarray(0, 32)]);
    this.privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }

  /** A signed transfer of `lamports` to `to`, in wire format. */
  transfer(
    to: Address,
    lamports: bigint,
    lifetime: { blockhash: string; lastValidBlockHeight: number },
  ): Uint8Array {
    const tx = new Transaction({ feePayer: this.keypair.publicKey, ...lifetime }).add(
      // A distinct compute limit per request keeps two identical airdrops in one slot from
      // sharing a signature (the second would be refused as already processed).
      ComputeBudgetProgram.setComputeUnitLimit({ units: 10_000 + (this.requests++ % 1_000_000) }),
      SystemProgram.transfer({ fromPubkey: this.keypair.publicKey, toPubkey: new PublicKey(to), lamports }),
    );
    tx.addSignature(this.keypair.publicKey, sign(null, tx.serializeMessage(), this.privateKey));
    return tx.serialize();
  }
}
