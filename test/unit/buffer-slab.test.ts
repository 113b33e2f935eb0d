import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BufferSlab } from '../../src/http/buffer-slab.js';
import { envelopeJson } from '../../src/http/routes/auctions/rendered-pages.js';

describe('BufferSlab', () => {
  it('hands out buffers of the asked size that never share bytes, across slabs and past the size limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 }), (sizes) => {
        const slab = new BufferSlab(1024); // small slabs: many refills, and sizes over 128 B direct
        const taken = sizes.map((size, i) => {
          const buffer = slab.take(size);
          expect(buffer.length).toBe(size);
          buffer.fill(i % 256);
          return buffer;
        });
        // Filling each later buffer left every earlier one as it was written.
        for (const [i, buffer] of taken.entries())
          expect(buffer.every((byte) => byte === i % 256)).toBe(true);
      }),
    );
  });
});

describe('envelopeJson', () => {
  it('writes the envelope around the data, each body intact after later ones', () => {
    const bodies = ['{"a":1}', '{"b":"é 名"}', '[]'].map((data, i) => ({
      data,
      body: envelopeJson(Buffer.from(data), 1_700_000_000_000 + i),
    }));
    for (const [i, { data, body }] of bodies.entries()) {
      expect(body.toString('utf8')).toBe(
        `{"success":true,"data":${data},"timestamp":${1_700_000_000_000 + i}}`,
      );
    }
  });
});
