import { Worker } from 'node:worker_threads';
import type { SanitizedTransaction } from './sanitized-transaction.js';
import type { SignatureVerifier } from './signature-verifier.js';

/*
 * A batch travels as one transferred buffer. Per transaction:
 *   u16 signature count n ‖ u16 message length m ‖ n × (32-byte key ‖ 64-byte signature) ‖ message
 * and comes back as one byte per transaction (1 = every signature valid).
 * The worker is plain JavaScript evaluated in place, so it loads the same way under node, tsx and vitest.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createPublicKey, verify } = require('node:crypto');
const PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map();
function keyObject(raw) {
  const id = raw.toString('latin1');
  let key = keys.get(id);
  if (key === undefined) {
    try { key = createPublicKey({ key: Buffer.concat([PREFIX, raw]), format: 'der', type: 'spki' }); } catch { key = null; }
    if (keys.size >= 10000) keys.delete(keys.keys().next().value);
    keys.set(id, key);
  }
  return key;
}
function verifyOne(buf, offset, n, m) {
  const message = buf.subarray(offset + 96 * n, offset + 96 * n + m);
  for (let i = 0; i < n; i++) {
    const at = offset + 96 * i;
    const key = keyObject(buf.subarray(at, at + 32));
    try { if (!key || !verify(null, message, key, buf.subarray(at + 32, at + 96))) return 0; } catch { return 0; }
  }
  return 1;
}
parentPort.on('message', ({ id, count, buffer }) => {
  const buf = Buffer.from(buffer);
  const results = new Uint8Array(count);
  let offset = 0;
  for (let j = 0; j < count; j++) {
    const n = buf.readUInt16LE(offset);
    const m = buf.readUInt16LE(offset + 2);
    results[j] = verifyOne(buf, offset + 4, n, m);
    offset += 4 + 96 * n + m;
  }
  parentPort.postMessage({ id, results }, [results.buffer]);
});
`;

interface Pending {
  readonly tx: SanitizedTransaction;
  readonly resolve: (ok: boolean) => void;
}

/**
 * Verifies signatures on a worker thread, so that ed25519 (the most expensive step of a
 * transaction) runs on another core than JSON-RPC and execution. Requests of one event-loop turn
 * go as one batch, and batches complete in order, so transactions still execute in arrival order.
 * Falls back to verifying in-thread if the worker dies.
 */
export class SignatureWorker {
  private readonly worker: Worker;
  private pending: Pending[] = [];
  private readonly inFlight = new Map<number, Pending[]>();
  private nextBatch = 0;
  private failed = false;

  constructor(private readonly fallback: SignatureVerifier) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.unref();
    this.worker.on('message', ({ id, results }: { id: number; results: Uint8Array }) => {
      const batch = this.inFlight.get(id) ?? [];
      this.inFlight.delete(id);
      batch.forEach(({ resolve }, i) => {
        resolve(results[i] === 1);
      });
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  verify(tx: SanitizedTransaction): Promise<boolean> {
    if (this.failed) return Promise.resolve(this.fallback.verifyTransaction(tx));
    return new Promise((resolve) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ tx, resolve });
    });
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const id = this.nextBatch++;
    this.inFlight.set(id, batch);
    const buffer = pack(batch.map((p) => p.tx));
    this.worker.postMessage({ id, count: batch.length, buffer }, [buffer]);
  }

  private fail(): void {
    this.failed = true;
    // Anything still waiting is answered by the in-thread verifier.
    for (const batch of this.inFlight.values()) {
      for (const { tx, resolve } of batch) resolve(this.fallback.verifyTransaction(tx));
    }
    this.inFlight.clear();
  }
}

function pack(txs: readonly SanitizedTransaction[]): ArrayBuffer {
  let size = 0;
  for (const tx of txs) size += 4 + 96 * tx.signatures.length + tx.messageBytes.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const tx of txs) {
    view.setUint16(offset, tx.signatures.length, true);
    view.setUint16(offset + 2, tx.messageBytes.length, true);
    offset += 4;
    tx.signatures.forEach((signature, i) => {
      out.set(tx.signerKeyBytes[i] ?? new Uint8Array(32), offset);
      out.set(signature, offset + 32);
      offset += 96;
    });
    out.set(tx.messageBytes, offset);
    offset += tx.messageBytes.length;
  }
  return out.buffer;
}
