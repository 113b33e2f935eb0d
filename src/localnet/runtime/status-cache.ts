/** Signatures of recorded transactions whose blockhash is still valid (Agave's status cache). */
export class StatusCache {
  private readonly bySignature = new Set<string>();
  private readonly byBlockhash = new Map<string, string[]>();

  has(signature: string): boolean {
    return this.bySignature.has(signature);
  }

  add(signature: string, blockhash: string): void {
    this.bySignature.add(signature);
    const list = this.byBlockhash.get(blockhash);
    if (list) list.push(signature);
    else this.byBlockhash.set(blockhash, [signature]);
  }

  /** A transaction with an expired blockhash can no longer land, so its signature need not be kept. */
  expire(blockhash: string): void {
    for (const signature of this.byBlockhash.get(blockhash) ?? []) this.bySignature.delete(signature);
    this.byBlockhash.delete(blockhash);
  }
}
