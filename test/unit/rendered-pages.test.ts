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
    const body = JSON.parse(envelopeJson(pages.get('k', () => view)));
    expect(body).toEqual({
      success: true,
      data: { items: [{ id: 'a', price: 1.5 }], total: 2 },
      timestamp: expect.any(Number),
    });
    expect(Object.keys(body)).toEqual(['success', 'data', 'timestamp']);
    expect(Object.keys(body.data)).toEqual(['items', 'total']);
  });

  it('renders a key once and keeps at most `capacity` pages, oldest out first', () => {
    const pages = new RenderedPages(Page, route, 2);
    let renders = 0;
    const view = (total: number) => () => {
      renders++;
      return { items: [], total };
    };
    expect(pages.get('1', view(1))).toBe('{"items":[],"total":1}');
    expect(pages.get('1', view(99))).toBe('{"items":[],"total":1}');
    expect(renders).toBe(1);
    pages.get('2', view(2));
    pages.get('3', view(3));
    expect(pages.get('1', view(4))).toBe('{"items":[],"total":4}');
    expect(renders).toBe(4);
  });

  it('fails like the serializer (a response serialization error) on a view the schema refuses', () => {
    const pages = new RenderedPages(Page, route);
    let error: unknown;
    try {
      pages.get('bad', () => ({ items: 'nope', total: 1 }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect(isResponseSerializationError(error as Error)).toBe(true);
  });
});
