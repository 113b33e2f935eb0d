/**
 * Response bodies carved out of shared slabs rather than allocated one by one, as Node's own pool
 * does for buffers under 4 KB: a list page is ~13 KB, and allocating a buffer that size for every
 * response costs more than copying the bytes into it. A slab is collected once no body carved
 * from it is referenced any more (every such response written).
 */
export class BufferSlab {
  private slab: Buffer;
  private used = 0;

  constructor(private readonly slabSize = 256 * 1024) {
    this.slab = Buffer.allocUnsafeSlow(slabSize);
  }

  /** `size` bytes, NOT initialized: the caller writes every one of them. */
  take(size: number): Buffer {
    if (size > this.slabSize / 8) return Buffer.allocUnsafe(size);
    if (this.used + size > this.slabSize) {
      this.slab = Buffer.allocUnsafeSlow(this.slabSize);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + size);
    this.used += (size + 7) & ~7; // 8-byte aligned, as Node's pool keeps its slices
    return out;
  }
}
