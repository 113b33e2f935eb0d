/**
 * Minimal Borsh writer/reader: the subset the auction program, SNS and events need.
 * Integers are little-endian; u64/i64 are bigint; strings and vecs carry a u32 length prefix.
 * @see https://borsh.io
 */

export class BorshError extends Error {
  override readonly name = 'BorshError';
}

export class BorshWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.reserve(1);
    this.view.setUint8(this.len, v);
    this.len += 1;
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  u16(v: number): this {
    this.reserve(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }
  u32(v: number): this {
    this.reserve(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }
  u64(v: bigint): this {
    if (v < 0n || v > 0xffff_ffff_ffff_ffffn) throw new BorshError(`u64 out of range: ${v}`);
    this.reserve(8);
    this.view.setBigUint64(this.len, v, true);
    this.len += 8;
    return this;
  }
  i64(v: bigint): this {
    if (v < -(2n ** 63n) || v >= 2n ** 63n) throw new BorshError(`i64 out of range: ${v}`);
    this.reserve(8);
    this.view.setBigInt64(this.len, v, true);
    this.len += 8;
    return this;
  }
  /** Raw bytes with no length prefix (fixed arrays, pubkeys, discriminators). */
  fixed(bytes: Uint8Array, expectedLength?: number): this {
    if (expectedLength !== undefined && bytes.length !== expectedLength) {
      throw new BorshError(`expected ${expectedLength} bytes, got ${bytes.length}`);
    }
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }
  bytes(bytes: Uint8Array): this {
    return this.u32(bytes.length).fixed(bytes);
  }
  string(s: string): this {
    return this.bytes(new TextEncoder().encode(s));
  }
  option<T>(v: T | null | undefined, write: (w: this, v: T) => void): this {
    if (v === null || v === undefined) return this.u8(0);
    this.u8(1);
    write(this, v);
    return this;
  }
  vec<T>(items: readonly T[], write: (w: this, v: T) => void): this {
    this.u32(items.length);
    for (const item of items) write(this, item);
    return this;
  }
  /** Pads with zeros up to `size` bytes (fixed-size account data). */
  padTo(size: number): this {
    if (this.len > size) throw new BorshError(`encoded ${this.len} bytes, more than the ${size} allotted`);
    this.reserve(size - this.len);
    this.buf.fill(0, this.len, size);
    this.len = size;
    return this;
  }
  get length(): number {
    return this.len;
  }
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

export class BorshReader {
  private readonly view: DataView;
  offset = 0;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): void {
    if (this.offset + n > this.buf.length) {
      throw new BorshError(`unexpected end of data: need ${n} bytes at offset ${this.offset}`);
    }
  }

  u8(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }
  bool(): boolean {
    const v = this.u8();
    if (v > 1) throw new BorshError(`invalid bool ${v} at offset ${this.offset - 1}`);
    return v === 1;
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }
  i64(): bigint {
    this.need(8);
    const v = this.view.getBigInt64(this.offset, true);
    this.offset += 8;
    return v;
  }
  fixed(n: number): Uint8Array {
    this.need(n);
    const v = this.buf.slice(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }
  bytes(maxLength = 10_240): Uint8Array {
    const n = this.u32();
    if (n > maxLength) throw new BorshError(`length ${n} exceeds the maximum ${maxLength}`);
    return this.fixed(n);
  }
  string(maxLength = 1_024): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes(maxLength));
  }
  option<T>(read: (r: this) => T): T | null {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag !== 1) throw new BorshError(`invalid option tag ${tag}`);
    return read(this);
  }
  vec<T>(read: (r: this) => T, maxItems = 64): T[] {
    const n = this.u32();
    if (n > maxItems) throw new BorshError(`vec of ${n} items exceeds the maximum ${maxItems}`);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }
  get remaining(): number {
    return this.buf.length - this.offset;
  }
  /** Instruction data must be consumed exactly; trailing bytes mean a malformed instruction. */
  expectEnd(): void {
    if (this.remaining !== 0) throw new BorshError(`${this.remaining} unexpected trailing bytes`);
  }
}
