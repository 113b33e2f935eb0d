import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelopeJson, RenderedPages } from '../../src/http/routes/auctions/rendered-pages.js';

const Page = z.object({ items: z.array(z.object({ id: z.string(), price: z.number() })), total: z.number() });
const route = { method: 'GET', url: '/things' };

describe('RenderedPages', () => {
  it('writes what the zod serializer writes: the encoding, stringified, in the envelope', () => {
    const pages = new RenderedPages(Page, route);
    const view = { total: 2, items: [{ price: 1.5, id: 'a', extra: true }] };
    const body = JSON.parse(envelopeJson(pages.put('k', 100n, null, view)).toString('utf8'));
    expect(body).toEqual({
      success: true,
      data: { items: [{ id: 'a', price: 1.5 }], total: 2 },
      timestamp: expect.any(Number),
    });
    expect(Object.keys(body)).toEqual(['success', 'data', 'timestamp']);
    expect(Object.keys(body.data)).toEqual(['items', 'total']);
  });

  it('keeps non-ASCII text intact (UTF-8 bytes)', () => {
    const Titled = z.object({ title: z.string() });
    const pages = new RenderedPages(Titled, route);
    const body = JSON.parse(
      envelopeJson(pages.put('t', 100n, null, { title: 'café — 名前 🚀' })).toString('utf8'),
    );
    expect(body.data).toEqual({ title: 'café — 名前 🚀' });
  });

  it('answers a page only over the chain seconds it holds for: from its rendering until it may change', () => {
    const pages = new RenderedPages(Page, route);
    expect(pages.get('k', 100n)).toBeUndefined();
    const json = pages.put('k', 100n, 105n, { items: [], total: 1 });
    for (const now of [100n, 101n, 104n]) expect(pages.get('k', now)).toBe(json);
    expect(pages.get('k', 105n)).toBeUndefined();
    expect(pages.get('k', 99n)).toBeUndefined(); // an instance whose clock lags renders its own
    expect(pages.get('other', 100n)).toBeUndefined();
    pages.put('still', 100n, null, { items: [], total: 2 });
    expect(pages.get('still', 10n ** 12n)?.toString()).toBe('{"items":[],"total":2}');
  });

  it('keeps at most `capacity` pages, the least recently read out first', () => {
    const pages = new RenderedPages(Page, route, 10);
    for (let i = 0; i < 10; i++) pages.put(String(i), 1n, null, { items: [], total: i });
    expect(pages.get('0', 1n)).toBeDefined(); // a hit: '1' is now the least recently used
    pages.put('10', 1n, null, { items: [], total: 10 });
    expect(pages.get('1', 1n)).toBeUndefined();
    for (const kept of ['0', '10', '9']) expect(pages.get(kept, 1n)).toBeDefined();
  });

  it('fails like the serializer (a response serialization error) on a view the schema refuses', () => {
    const pages = new RenderedPages(Page, route);
    let error: unknown;
    try {
      pages.put('bad', 1n, null, { items: 'nope', total: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect(isResponseSerializationError(error as Error)).toBe(true);
  });
});
