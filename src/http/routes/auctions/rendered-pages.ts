import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * GET /auctions pages already rendered (the envelope's `data` as JSON), by view key: a page's view
 * is a function of its key, so the many clients reading the same page share one rendering, where
 * building the views and encoding them would otherwise dominate. The least recently used page
 * goes first (~13 KB a page of 20). The JSON is what the route's zod serializer would write: the
 * schema's encoding, stringified; kept as UTF-8 bytes, so a response is a copy of them rather than
 * a new 13 KB string measured and encoded again on every request.
 */
export class RenderedPages {
  private readonly pages = new Map<string, Buffer>();

  constructor(
    private readonly schema: z.ZodType,
    private readonly route: { readonly method: string; readonly url: string },
    private readonly capacity = 2_000,
  ) {}

  /** The rendered page for `key`, rendering `view()` on a miss. */
  get(key: string, view: () => unknown): Buffer {
    const cached = this.pages.get(key);
    if (cached !== undefined) {
      this.pages.delete(key); // most recently used last
      this.pages.set(key, cached);
      return cached;
    }
    const encoded = this.schema.safeEncode(view());
    if (!encoded.success) {
      throw new ResponseSerializationError(this.route.method, this.route.url, { cause: encoded.error });
    }
    const json = Buffer.from(JSON.stringify(encoded.data));
    this.pages.set(key, json);
    if (this.pages.size > this.capacity) this.pages.delete(this.pages.keys().next().value!);
    return json;
  }
}

const ENVELOPE_START = Buffer.from('{"success":true,"data":');

/** The success envelope around rendered `data`, as the zod serializer writes it (same key order). */
export function envelopeJson(dataJson: Buffer): Buffer {
  return Buffer.concat([ENVELOPE_START, dataJson, Buffer.from(`,"timestamp":${Date.now()}}`)]);
}
