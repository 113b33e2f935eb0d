import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { LruCache } from '../../../core/collections/lru-cache.js';

interface RenderedPage {
  readonly json: Buffer;
  /** The chain seconds over which the page holds: [from, until), until null = until a write. */
  readonly from: bigint;
  readonly until: bigint | null;
}

/**
 * GET /auctions pages already rendered (the envelope's `data` as JSON), by content key and for
 * the span of chain time over which they hold: the many clients reading the same page share one
 * rendering, and a hit needs neither the documents nor the views, where reading, building and
 * encoding them would otherwise dominate. The least recently used page goes first (~13 KB a page
 * of 20). The JSON is what the route's zod serializer would write: the schema's encoding,
 * stringified; kept as UTF-8 bytes, so a response is a copy of them rather than a new 13 KB string
 * measured and encoded again on every request.
 */
export class RenderedPages {
  private readonly pages: LruCache<string, RenderedPage>;

  constructor(
    private readonly schema: z.ZodType,
    private readonly route: { readonly method: string; readonly url: string },
    capacity = 2_000,
  ) {
    this.pages = new LruCache(capacity);
  }

  /** The page rendered for `key` if it holds at chain time `now`. */
  get(key: string, now: bigint): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page || now < page.from || (page.until !== null && now >= page.until)) return undefined;
    return page.json;
  }

  /** Renders `view`, the page of `key` at `now`, and keeps it until chain time `until` (null: no end). */
  put(key: string, now: bigint, until: bigint | null, view: unknown): Buffer {
    const encoded = this.schema.safeEncode(view);
    if (!encoded.success) {
      throw new ResponseSerializationError(this.route.method, this.route.url, { cause: encoded.error });
    }
    const json = Buffer.from(JSON.stringify(encoded.data));
    this.pages.set(key, { json, from: now, until });
    return json;
  }
}

const ENVELOPE_START = Buffer.from('{"success":true,"data":');

/** The success envelope around rendered `data`, as the zod serializer writes it (same key order). */
export function envelopeJson(dataJson: Buffer): Buffer {
  return Buffer.concat([ENVELOPE_START, dataJson, Buffer.from(`,"timestamp":${Date.now()}}`)]);
}
