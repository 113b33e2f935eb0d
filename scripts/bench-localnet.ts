/**
 * npm run bench:localnet — the embedded chain under load, over the wire, in a separate process:
 *  1. sustained place_bid transactions per second through sendTransaction (preflight on, as
 *     wallets send), next to System transfers through the same path as the same-run baseline;
 *  2. getProgramAccounts with a memcmp filter over 10,000 auctions, next to getSlot as baseline.
 * Options: --auctions N (default 10000), --bidders N (default 500), --waves N (default 6).
 */
import { parseArgs } from 'node:util';
import {
  Connection,
  Keypair,
  type PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import type { AuctionWithAddress } from '../src/chain/auction-accounts.js';
import { fetchAuction, findAuctionAddress, randomAuctionNonce } from '../src/chain/auction-accounts.js';
import { createAuctionInstruction, placeBidInstruction } from '../src/chain/auction-instructions.js';
import { AUCTION_ACCOUNT_SIZE, AUCTION_OFFSETS } from '../src/core/program/auction-account.js';
import { AUCTION_PROGRAM_ID } from '../src/core/program/ids.js';
import { rpcCall as rpc, startLocalnetProcess } from './bench/localnet-process.js';
import { latencySummary, machineDescription, mapConcurrent, progress } from './bench/measure.js';

const SOL = 1_000_000_000;
const { values } = parseArgs({
  options: { auctions: { type: 'string' }, bidders: { type: 'string' }, waves: { type: 'string' } },
});
const AUCTIONS = Number(values.auctions ?? 10_000);
const BIDDERS = Number(values.bidders ?? 500);
const WAVES = Number(values.waves ?? 6);
const SELLERS = Math.max(1, Math.ceil(AUCTIONS / 100));
const CONCURRENCY = 64;

function signed(
  connection: { blockhash: string },
  payer: Keypair,
  ixs: TransactionInstruction[],
  signers: Keypair[] = [payer],
) {
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: connection.blockhash }).add(
    ...ixs,
  );
  tx.sign(...signers);
  return tx.serialize();
}

/** Sends pre-signed transactions with bounded concurrency; returns transactions per second and failures. */
async function sendAll(connection: Connection, txs: readonly Buffer[], skipPreflight: boolean) {
  let failures = 0;
  let firstError: unknown;
  const started = performance.now();
  await mapConcurrent(txs, CONCURRENCY, async (raw) => {
    try {
      await connection.sendRawTransaction(raw, { skipPreflight, maxRetries: 0 });
    } catch (error) {
      failures++;
      firstError ??= error;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  if (failures > 0)
    progress(`${failures} of ${txs.length} failed; first: ${String(firstError).slice(0, 300)}`);
  return { perSecond: Math.round((txs.length - failures) / seconds), failures };
}

async function fund(connection: Connection, keys: readonly PublicKey[], sol: number) {
  const signatures = await mapConcurrent(keys, CONCURRENCY, (k) => connection.requestAirdrop(k, sol * SOL));
  await connection.getSignatureStatuses(signatures.slice(-1));
}

async function main() {
  console.log(
    `bench:localnet — ${machineDescription()}; ${AUCTIONS} auctions, ${BIDDERS} bidders × ${WAVES} waves`,
  );
  const localnet = await startLocalnetProcess();
  const { rpcUrl, wsUrl } = localnet;
  const connection = new Connection(rpcUrl, { commitment: 'confirmed', wsEndpoint: wsUrl });
  try {
    const sellers = Array.from({ length: SELLERS }, () => Keypair.generate());
    const bidders = Array.from({ length: BIDDERS }, () => Keypair.generate());
    await fund(
      connection,
      [...sellers, ...bidders].map((k) => k.publicKey),
      1_000,
    );

    progress(`registering ${AUCTIONS} domains`);
    const names = await mapConcurrent(
      Array.from({ length: AUCTIONS }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const name = `bench-${i}-${Math.random().toString(36).slice(2, 8)}.sol`;
        await rpc(rpcUrl, 'localnet_registerDomain', [name, sellers[i % SELLERS]!.publicKey.toBase58()]);
        return name;
      },
    );

    // Signed in chunks, each with a fresh blockhash: a blockhash lives ~60 s (150 slots).
    progress(`creating ${AUCTIONS} auctions`);
    const creates: { seller: Keypair; nonce: bigint }[] = [];
    let createSeconds = 0;
    let createFailures = 0;
    for (let from = 0; from < AUCTIONS; from += 2_000) {
      const latest = await connection.getLatestBlockhash();
      const chunk = names.slice(from, from + 2_000).map((name, j) => {
        const seller = sellers[(from + j) % SELLERS]!;
        const nonce = randomAuctionNonce();
        creates.push({ seller, nonce });
        const ix = createAuctionInstruction({
          seller: seller.publicKey,
          nonce,
          auctionType: 'standard',
          domainNames: [name],
          durationSeconds: 86_400,
          startingPrice: BigInt(SOL / 10),
          minIncrement: BigInt(SOL / 100),
        });
        return signed(latest, seller, [ix]);
      });
      const started = performance.now();
      createFailures += (await sendAll(connection, chunk, false)).failures;
      createSeconds += (performance.now() - started) / 1000;
    }
    if (createFailures > 0) throw new Error(`${createFailures} auction creations failed; see above`);
    const createRate = { perSecond: Math.round(AUCTIONS / createSeconds), failures: createFailures };
    progress(`created at ${createRate.perSecond}/s (${createRate.failures} failed)`);

    // --- 1. bids vs transfers, same path, same concurrency -------------------------------
    const targets = creates
      .slice(0, BIDDERS)
      .map((c) => findAuctionAddress(c.seller.publicKey, c.nonce).address);
    const auctions: AuctionWithAddress[] = [];
    for (const address of targets) auctions.push((await fetchAuction(connection, address))!);

    const bidRates: number[] = [];
    const transferRates: number[] = [];
    let bidFailures = 0;
    for (let wave = 0; wave < WAVES; wave++) {
      const latest = await connection.getLatestBlockhash();
      const bids = auctions.map((auction, i) => {
        // Each wave outbids the previous one, so every bid after the first also refunds.
        const bidder = bidders[(i + wave) % BIDDERS]!;
        const amount = BigInt(SOL / 10) + BigInt(wave) * BigInt(SOL / 100);
        return signed(latest, bidder, [
          placeBidInstruction({ bidder: bidder.publicKey, auction, amount, treasury: bidder.publicKey }),
        ]);
      });
      const transfers = bidders.map((from, i) =>
        signed(latest, from, [
          SystemProgram.transfer({
            fromPubkey: from.publicKey,
            toPubkey: bidders[(i + 1) % BIDDERS]!.publicKey,
            lamports: 1_000 + wave,
          }),
        ]),
      );
      const bidResult = await sendAll(connection, bids, false);
      const transferResult = await sendAll(connection, transfers, false);
      bidRates.push(bidResult.perSecond);
      transferRates.push(transferResult.perSecond);
      bidFailures += bidResult.failures;
      auctions.forEach((a, i) => {
        const bidder = bidders[(i + wave) % BIDDERS]!;
        auctions[i] = {
          ...a,
          topBidder: bidder.publicKey.toBase58() as typeof a.seller,
          topBid: BigInt(SOL / 10) + BigInt(wave) * BigInt(SOL / 100),
          bidCount: a.bidCount + 1,
        };
      });
      progress(
        `wave ${wave + 1}/${WAVES}: bids ${bidResult.perSecond}/s, transfers ${transferResult.perSecond}/s`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    // skipPreflight halves the work per transaction (no simulation); reported for context.
    const skipLatest = await connection.getLatestBlockhash();
    const skipBids = auctions.map((auction, i) => {
      const bidder = bidders[(i + WAVES) % BIDDERS]!;
      return signed(skipLatest, bidder, [
        placeBidInstruction({
          bidder: bidder.publicKey,
          auction,
          amount: BigInt(SOL),
          treasury: bidder.publicKey,
        }),
      ]);
    });
    const skipResult = await sendAll(connection, skipBids, true);

    // --- 2. getProgramAccounts over all auctions ------------------------------------------
    progress('getProgramAccounts');
    const seller = sellers[0]!.publicKey.toBase58();
    const gpaSamples: number[] = [];
    const slotSamples: number[] = [];
    let matched = 0;
    for (let i = 0; i < 200; i++) {
      let t = performance.now();
      const accounts = await connection.getProgramAccounts(
        new (await import('@solana/web3.js')).PublicKey(AUCTION_PROGRAM_ID),
        {
          filters: [
            { dataSize: AUCTION_ACCOUNT_SIZE },
            { memcmp: { offset: AUCTION_OFFSETS.seller, bytes: seller } },
          ],
        },
      );
      gpaSamples.push(performance.now() - t);
      matched = accounts.length;
      t = performance.now();
      await connection.getSlot();
      slotSamples.push(performance.now() - t);
    }
    const total = (
      await rpc<unknown[]>(rpcUrl, 'getProgramAccounts', [
        AUCTION_PROGRAM_ID,
        { encoding: 'base64', dataSlice: { offset: 0, length: 0 } },
      ])
    ).length;

    const bidsPerSecond = median(bidRates);
    const transfersPerSecond = median(transferRates);
    const gpa = latencySummary(gpaSamples);
    const slot = latencySummary(slotSamples);
    console.log(
      JSON.stringify(
        {
          machine: machineDescription(),
          bids: {
            perSecondMedian: bidsPerSecond,
            perWave: bidRates,
            failures: bidFailures,
            skipPreflightPerSecond: skipResult.perSecond,
          },
          baselineTransfers: { perSecondMedian: transfersPerSecond, perWave: transferRates },
          bidToTransferRatio: Math.round((bidsPerSecond / transfersPerSecond) * 100) / 100,
          createsPerSecond: createRate.perSecond,
          getProgramAccounts: { programAccounts: total, matched, latencyMs: gpa },
          baselineGetSlotMs: slot,
          targets: { bidsPerSecond: '>= 1000', getProgramAccountsMs: '< 50' },
          met: { bids: bidsPerSecond >= 1_000, getProgramAccounts: gpa.p99 < 50 },
        },
        null,
        2,
      ),
    );
  } finally {
    await localnet.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
