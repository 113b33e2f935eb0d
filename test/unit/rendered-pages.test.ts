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
    const body = JSON.parse(envelopeJson(pages.get('k', () => view)).toString('utf8'));
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
      envelopeJson(pages.get('t', () => ({ title: 'café — 名前 🚀' }))).toString('utf8'),
    );
    expect(body.data).toEqual({ title: 'café — 名前 🚀' });
  });

  it('renders a key once and keeps at most `capacity` pages, oldest out first', () => {
    const pages = new RenderedPages(Page, route, 2);
    let renders = 0;
    const view = (total: number) => () => {
      renders++;
      return { items: [], total };
    };
    expect(pages.get('1', view(1)).toString()).toBe('{"items":[],"total":1}');
    expect(pages.get('1', view(99)).toString()).toBe('{"items":[],"total":1}');
    expect(renders).toBe(1);
    pages.get('2', view(2));
    pages.get('3', view(3));
    expect(pages.get('1', view(4)).toString()).toBe('{"items":[],"total":4}');
    expect(renders).toBe(4);
  });

  it('keeps the pages read lately: a hit makes a page the last to go', () => {
    const pages = new RenderedPages(Page, route, 2);
    let renders = 0;
    const view = (total: number) => () => {
      renders++;
      return { items: [], total };
    };
    pages.get('1', view(1));
    pages.get('2', view(2));
    pages.get('1', view(1)); // hit: '2' is now the least recently used
    pages.get('3', view(3));
    expect(renders).toBe(3);
    pages.get('1', view(1));
    expect(renders).toBe(3);
    pages.get('2', view(2));
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
