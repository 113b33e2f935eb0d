/**
 * The GET /auctions cases of bench:api: each sort without filters, then the filters (status, type,
 * seller, search) alone and combined. Every case draws its requests from many variants (pages,
 * sellers, search terms), as many clients browsing would, rather than one URL the page cache
 * would answer every time.
 */
import type { Address } from '../../src/core/address.js';
import type { RequestVariant } from './load-generator.js';
import { seededRandom } from './synthetic-auctions.js';

export interface ListCase {
  readonly name: string;
  readonly variants: readonly RequestVariant[];
}

const WORDS = ['vault', 'gold', 'nova', 'pixel'];

export function listCases(input: {
  readonly apiPrefix: string;
  readonly sellers: readonly Address[];
  readonly auctionCount: number;
  /** Pages drawn uniformly from 1..pages. */
  readonly pages: number;
}): ListCase[] {
  const random = seededRandom(input.auctionCount);
  const pages = Array.from({ length: input.pages }, (_, i) => i + 1);
  const list = (query: string, pageList: readonly number[] = pages) =>
    pageList.map((page) => ({ path: `${input.apiPrefix}/auctions?pageSize=20&page=${page}${query}` }));
  const perSeller = (query: string) =>
    input.sellers.map((seller) => ({
      path: `${input.apiPrefix}/auctions?pageSize=20&seller=${seller}${query}`,
    }));
  const names = Array.from(
    { length: 200 },
    () => `name${Math.floor(random() * Math.min(input.auctionCount, 100_000) * 0.9)}`,
  );
  return [
    { name: 'sort endTime asc (default)', variants: list('') },
    { name: 'sort currentPrice asc', variants: list('&sortBy=currentPrice') },
    { name: 'sort currentPrice desc', variants: list('&sortBy=currentPrice&sortOrder=desc') },
    { name: 'sort totalBids desc', variants: list('&sortBy=totalBids&sortOrder=desc') },
    { name: 'sort createdAt desc', variants: list('&sortBy=createdAt&sortOrder=desc') },
    { name: 'status=active', variants: list('&status=active') },
    {
      name: 'status=active type=dutch sort currentPrice',
      variants: list('&status=active&type=dutch&sortBy=currentPrice'),
    },
    {
      name: 'type=buy_now sort currentPrice desc',
      variants: list('&type=buy_now&sortBy=currentPrice&sortOrder=desc'),
    },
    { name: 'seller=<one of 1,000>', variants: perSeller('') },
    {
      name: 'seller + status=active sort currentPrice',
      variants: perSeller('&status=active&sortBy=currentPrice'),
    },
    {
      name: 'search=<domain name, e.g. name1234>',
      variants: names.map((n) => ({ path: `${input.apiPrefix}/auctions?pageSize=20&search=${n}` })),
    },
    {
      name: 'search=<common word, e.g. vault>',
      variants: WORDS.map((w) => ({ path: `${input.apiPrefix}/auctions?pageSize=20&search=${w}` })),
    },
  ];
}
