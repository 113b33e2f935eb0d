import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * GET /auctions pages already rendered (the envelope's `data` as JSON), by view key: a page's view
 * is a function of its key, so the many clients reading the same page in the same chain second
 * share one rendering, where building the views and encoding them would otherwise dominate.
 * The JSON is what the route's zod serializer would write: the schema's encoding, stringified.
 */
export class RenderedPages {
  private readonly pages = new Map<string, string>();

  constructor(
    private readonly schema: z.ZodType,
    private readonly route: { readonly method: string; readonly url: string },
    private readonly capacity = 500,
  ) {}

  /** The rendered page for `key`, rendering `view()` on a miss. */
  get(key: string, view: () => unknown): string {
    const cached = this.pages.get(key);
    if (cached !== undefined) return cached;
    const encoded = this.schema.safeEncode(view());
    if (!encoded.success) {
      throw new ResponseSerializationError(this.route.method, this.route.url, { cause: encoded.error });
    }
    const json = JSON.stringify(encoded.data);
    this.pages.set(key, json);
    // Keys start with the chain second, so the oldest insertions are the first to go stale.
    if (this.pages.size > this.capacity) this.pages.delete(this.pages.keys().next().value!);
    return json;
  }
}

/** The success envelope around rendered `data`, as the zod serializer writes it (same key order). */
export function envelopeJson(dataJson: string): string {
  return `{"success":true,"data":${dataJson},"timestamp":${Date.now()}}`;
}
