import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Address, addressFromBytes, addressToBytes } from '../../src/core/address.js';
import {
  AUCTION_ACCOUNT_DISCRIMINATOR,
  AUCTION_ACCOUNT_SIZE,
  AUCTION_OFFSETS,
  AUCTION_STATES,
  AUCTION_TYPES,
  type AuctionAccount,
  decodeAuctionAccount,
  encodeAuctionAccount,
  RESERVE_OUTCOMES,
} from '../../src/core/program/auction-account.js';
import {
  CONFIG_ACCOUNT_SIZE,
  type ConfigAccount,
  decodeConfigAccount,
  encodeConfigAccount,
} from '../../src/core/program/config-account.js';
import { parseAuctionEventsFromLogs } from '../../src/core/program/event-logs.js';
import {
  type AuctionEvent,
  decodeAuctionEvent,
  EVENT_DISCRIMINATORS,
  encodeAuctionEvent,
} from '../../src/core/program/events.js';
import { AUCTION_PROGRAM_ID } from '../../src/core/program/ids.js';
import {
  type AuctionInstruction,
  decodeAuctionInstruction,
  encodeAuctionInstruction,
  INSTRUCTION_DISCRIMINATORS,
} from '../../src/core/program/instructions.js';

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const u32 = fc.nat({ max: 0xffff_ffff });
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const address = bytes32.filter((b) => b.some((x) => x !== 0)).map((b) => addressFromBytes(b));
const domainName = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .map((label) => `${label}.sol`)
  .filter((name) => new TextEncoder().encode(name).length <= 63);
const domains = fc.array(fc.record({ nameAccount: address, name: domainName }), {
  minLength: 1,
  maxLength: 5,
});

const auctionAccount: fc.Arbitrary<AuctionAccount> = fc.record({
  version: fc.nat({ max: 255 }),
  bump: fc.nat({ max: 255 }),
  auctionType: fc.constantFrom(...AUCTION_TYPES),
  state: fc.constantFrom(...AUCTION_STATES),
  seller: address,
  nonce: u64,
  startingPrice: u64,
  minIncrement: u64,
  buyNowPrice: u64,
  dutchFloor: u64,
  reserveCommitment: fc.option(bytes32, { nil: null }),
  startTs: i64,
  endTs: i64,
  snipeEnabled: fc.boolean(),
  snipeWindowSeconds: u32,
  snipeExtensionSeconds: u32,
  topBidder: fc.option(address, { nil: null }),
  topBid: u64,
  bidCount: u32,
  winner: fc.option(address, { nil: null }),
  finalPrice: u64,
  reserveOutcome: fc.constantFrom(...RESERVE_OUTCOMES),
  createdAt: i64,
  settledAt: i64,
  domains,
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const u64At = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset).getBigUint64(offset, true);
const i64At = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset).getBigInt64(offset, true);
const u32At = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset).getUint32(offset, true);
const pubkeyAt = (data: Uint8Array, offset: number) => hex(data.subarray(offset, offset + 32));
const optionalPubkey = (a: Address | null) => (a ? hex(addressToBytes(a)) : hex(new Uint8Array(32)));

describe('Auction account codec', () => {
  it('round-trips every account and always encodes to the fixed size', () => {
    fc.assert(
      fc.property(auctionAccount, (a) => {
        const data = encodeAuctionAccount(a);
        expect(data.length).toBe(AUCTION_ACCOUNT_SIZE);
        expect(decodeAuctionAccount(data)).toEqual(a);
      }),
    );
  });

  it('puts every field at the offset docs/program.md documents (memcmp filters rely on them)', () => {
    fc.assert(
      fc.property(auctionAccount, (a) => {
        const d = encodeAuctionAccount(a);
        expect(hex(d.subarray(0, 8))).toBe(hex(AUCTION_ACCOUNT_DISCRIMINATOR));
        expect(d[AUCTION_OFFSETS.auctionType]).toBe(AUCTION_TYPES.indexOf(a.auctionType));
        expect(d[AUCTION_OFFSETS.state]).toBe(AUCTION_STATES.indexOf(a.state));
        expect(pubkeyAt(d, AUCTION_OFFSETS.seller)).toBe(hex(addressToBytes(a.seller)));
        expect(u64At(d, 44)).toBe(a.nonce);
        expect(u64At(d, 52)).toBe(a.startingPrice);
        expect(u64At(d, 60)).toBe(a.minIncrement);
        expect(u64At(d, 68)).toBe(a.buyNowPrice);
        expect(u64At(d, 76)).toBe(a.dutchFloor);
        expect(d[84]).toBe(a.reserveCommitment ? 1 : 0);
        expect(i64At(d, 117)).toBe(a.startTs);
        expect(i64At(d, 125)).toBe(a.endTs);
        expect(d[133]).toBe(a.snipeEnabled ? 1 : 0);
        expect(u32At(d, 134)).toBe(a.snipeWindowSeconds);
        expect(u32At(d, 138)).toBe(a.snipeExtensionSeconds);
        expect(pubkeyAt(d, 142)).toBe(optionalPubkey(a.topBidder));
        expect(u64At(d, 174)).toBe(a.topBid);
        expect(u32At(d, 182)).toBe(a.bidCount);
        expect(pubkeyAt(d, 186)).toBe(optionalPubkey(a.winner));
        expect(u64At(d, 218)).toBe(a.finalPrice);
        expect(d[226]).toBe(RESERVE_OUTCOMES.indexOf(a.reserveOutcome));
        expect(i64At(d, 227)).toBe(a.createdAt);
        expect(i64At(d, 235)).toBe(a.settledAt);
        expect(u32At(d, 243)).toBe(a.domains.length);
        expect(pubkeyAt(d, 247)).toBe(hex(addressToBytes(a.domains[0]!.nameAccount)));
      }),
    );
  });

  it('fits five domains with 63-byte names', () => {
    const name = `${'a'.repeat(59)}.sol`;
    fc.assert(
      fc.property(auctionAccount, address, (a, nameAccount) => {
        const full = { ...a, domains: Array.from({ length: 5 }, () => ({ nameAccount, name })) };
        expect(decodeAuctionAccount(encodeAuctionAccount(full))).toEqual(full);
      }),
      { numRuns: 20 },
    );
  });

  it('refuses data that is not an Auction account', () => {
    expect(() => decodeAuctionAccount(new Uint8Array(AUCTION_ACCOUNT_SIZE))).toThrow(/discriminator/);
  });
});

describe('Config account codec', () => {
  const config: fc.Arbitrary<ConfigAccount> = fc.record({
    version: fc.nat({ max: 255 }),
    bump: fc.nat({ max: 255 }),
    authority: address,
    keeper: address,
    treasury: address,
    feeBps: fc.nat({ max: 0xffff }),
    defaultSnipeWindowSeconds: u32,
  });

  it('round-trips at the documented offsets', () => {
    fc.assert(
      fc.property(config, (c) => {
        const d = encodeConfigAccount(c);
        expect(d.length).toBe(CONFIG_ACCOUNT_SIZE);
        expect(decodeConfigAccount(d)).toEqual(c);
        expect(pubkeyAt(d, 42)).toBe(hex(addressToBytes(c.keeper)));
        expect(pubkeyAt(d, 74)).toBe(hex(addressToBytes(c.treasury)));
        expect(new DataView(d.buffer).getUint16(106, true)).toBe(c.feeBps);
        expect(u32At(d, 108)).toBe(c.defaultSnipeWindowSeconds);
      }),
    );
  });
});

const instruction: fc.Arbitrary<AuctionInstruction> = fc.oneof(
  fc.record({
    name: fc.constant('initialize_config' as const),
    args: fc.record({
      keeper: address,
      treasury: address,
      feeBps: fc.nat({ max: 0xffff }),
      defaultSnipeWindowSeconds: u32,
    }),
  }),
  fc.record({
    name: fc.constant('create_auction' as const),
    args: fc.record({
      nonce: u64,
      auctionType: fc.constantFrom(...AUCTION_TYPES),
      startingPrice: u64,
      minIncrement: u64,
      buyNowPrice: u64,
      dutchFloor: u64,
      reserveCommitment: fc.option(bytes32, { nil: null }),
      startTs: i64,
      durationSeconds: u32,
      snipeEnabled: fc.boolean(),
      snipeExtensionSeconds: u32,
      domainNames: fc.array(domainName, { minLength: 0, maxLength: 6 }),
    }),
  }),
  fc.record({ name: fc.constant('place_bid' as const), args: fc.record({ amount: u64 }) }),
  fc.record({
    name: fc.constant('settle' as const),
    args: fc.record({ reveal: fc.option(fc.record({ reserve: u64, salt: bytes32 }), { nil: null }) }),
  }),
  fc.record({ name: fc.constant('cancel' as const), args: fc.constant({}) }),
);

describe('instruction codec', () => {
  it('round-trips every instruction behind its discriminator', () => {
    fc.assert(
      fc.property(instruction, (ix) => {
        const data = encodeAuctionInstruction(ix);
        expect(hex(data.subarray(0, 8))).toBe(hex(INSTRUCTION_DISCRIMINATORS[ix.name]));
        expect(decodeAuctionInstruction(data)).toEqual(ix);
      }),
    );
  });

  it('rejects trailing bytes, truncation and unknown discriminators', () => {
    const bid = encodeAuctionInstruction({ name: 'place_bid', args: { amount: 5n } });
    expect(() => decodeAuctionInstruction(Uint8Array.of(...bid, 0))).toThrow(/trailing/);
    expect(() => decodeAuctionInstruction(bid.subarray(0, 12))).toThrow(/end of data/);
    expect(() => decodeAuctionInstruction(new Uint8Array(16))).toThrow(/discriminator/);
  });

  it('uses the Anchor discriminators sha256("global:<name>")[0..8]', () => {
    expect([...INSTRUCTION_DISCRIMINATORS.place_bid]).toEqual([238, 77, 148, 91, 200, 151, 92, 146]);
    expect([...INSTRUCTION_DISCRIMINATORS.create_auction]).toEqual([234, 6, 201, 246, 47, 219, 176, 107]);
    expect([...INSTRUCTION_DISCRIMINATORS.settle]).toEqual([175, 42, 185, 87, 144, 131, 102, 212]);
  });
});

const event: fc.Arbitrary<AuctionEvent> = fc.oneof(
  fc.record({
    name: fc.constant('AuctionCreated' as const),
    data: fc.record({
      auction: address,
      seller: address,
      auctionType: fc.constantFrom(...AUCTION_TYPES),
      domains: fc.array(domainName, { minLength: 1, maxLength: 5 }),
      startingPrice: u64,
      minIncrement: u64,
      buyNowPrice: u64,
      dutchFloor: u64,
      hasReserve: fc.boolean(),
      startTs: i64,
      endTs: i64,
      snipeEnabled: fc.boolean(),
      snipeWindowSeconds: u32,
      snipeExtensionSeconds: u32,
      timestamp: i64,
    }),
  }),
  fc.record({
    name: fc.constant('BidPlaced' as const),
    data: fc.record({
      auction: address,
      bidder: address,
      amount: u64,
      previousBidder: fc.option(address, { nil: null }),
      previousAmount: u64,
      bidCount: u32,
      endTs: i64,
      timestamp: i64,
    }),
  }),
  fc.record({
    name: fc.constant('AuctionExtended' as const),
    data: fc.record({ auction: address, bidder: address, amount: u64, previousEndTs: i64, newEndTs: i64 }),
  }),
  fc.record({
    name: fc.constant('AuctionSettled' as const),
    data: fc.record({
      auction: address,
      seller: address,
      winner: fc.option(address, { nil: null }),
      price: u64,
      fee: u64,
      timestamp: i64,
    }),
  }),
  fc.record({
    name: fc.constant('ReserveNotMet' as const),
    data: fc.record({ auction: address, topBidder: fc.option(address, { nil: null }), topBid: u64 }),
  }),
  fc.record({
    name: fc.constant('AuctionCancelled' as const),
    data: fc.record({ auction: address, seller: address, timestamp: i64 }),
  }),
);

describe('event codec', () => {
  it('round-trips every event behind its discriminator', () => {
    fc.assert(
      fc.property(event, (e) => {
        const data = encodeAuctionEvent(e);
        expect(hex(data.subarray(0, 8))).toBe(hex(EVENT_DISCRIMINATORS[e.name]));
        expect(decodeAuctionEvent(data)).toEqual(e);
      }),
    );
  });

  it('reads events back from Anchor-framed logs, ignoring other programs and failed frames', () => {
    const other = '11111111111111111111111111111111';
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 4 }), (events) => {
        const data = (e: AuctionEvent) =>
          `Program data: ${Buffer.from(encodeAuctionEvent(e)).toString('base64')}`;
        const logs = [
          `Program ${AUCTION_PROGRAM_ID} invoke [1]`,
          'Program log: Instruction: PlaceBid',
          `Program ${other} invoke [2]`,
          data(events[0]!),
          `Program ${other} success`,
          ...events.map(data),
          `Program ${AUCTION_PROGRAM_ID} consumed 1000 of 200000 compute units`,
          `Program ${AUCTION_PROGRAM_ID} success`,
        ];
        const parsed = parseAuctionEventsFromLogs(logs, AUCTION_PROGRAM_ID);
        expect(parsed.map((p) => p.event)).toEqual(events);
        expect(parsed.map((p) => p.index)).toEqual(events.map((_, i) => i));
      }),
    );
  });

  it('uses the known Anchor discriminators', () => {
    expect([...EVENT_DISCRIMINATORS.BidPlaced]).toEqual([135, 53, 176, 83, 193, 69, 108, 61]);
    expect([...AUCTION_ACCOUNT_DISCRIMINATOR]).toEqual([218, 94, 247, 242, 126, 233, 131, 81]);
  });
});
