/**
 * tx_submit's policy, enforced before any signature, on real prepared transactions from the API and
 * on hand-made ones the API would never return (wrong program, wrong fee payer, hidden transfer).
 */
import { readFile } from 'node:fs/promises';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreparedKind } from '../../mcp/signing/prepared-store.js';
import { SpendLedger } from '../../mcp/signing/spend-ledger.js';
import { summarizeTransaction } from '../../mcp/signing/summarize.js';
import { NAME_PROGRAM_ID } from '../../src/core/program/ids.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { connectMcp, type Harness, textOf } from './mcp-harness.js';

const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

describe('tx_submit policy', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  const harnesses: Harness[] = [];

  beforeAll(async () => {
    env = await startAuctionApi('mcp-policy');
    seller = await walletWithKey(env);
  });
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await env?.close();
  });

  async function bidderWith(
    policyEnv: Record<string, string>,
    options: Parameters<typeof connectMcp>[2] = {},
  ) {
    // Joins the seller's account: bootstrap key creation is limited to 5 an hour per IP.
    const wallet = await walletWithKey(env, { using: seller.key });
    const mcp = await connectMcp(env, wallet, { signer: true, env: policyEnv, ...options });
    harnesses.push(mcp);
    return { wallet, mcp };
  }

  const balanceOf = async (w: Wallet) => BigInt(await env.connection.getBalance(w.keypair.publicKey));
  const prepareBid = async (mcp: Harness, auctionId: string, amountSol: number) =>
    (await mcp.ok<{ preparedId: string }>('bid_place', { auctionId, amountSol })).preparedId;

  it('refuses a bid above MAX_BID_SOL, then signs one within it', async () => {
    const { wallet, mcp } = await bidderWith({ MAX_BID_SOL: '2' });
    const { auctionId } = await createViaApi(env, seller);
    const before = await balanceOf(wallet);
    const refusal = await mcp.fails('tx_submit', { preparedId: await prepareBid(mcp, auctionId, 2.5) });
    expect(refusal).toMatch(
      /policy refused \(max_bid\).*2\.5 SOL is above MAX_BID_SOL 2 SOL.*Nothing was signed/,
    );
    expect(await balanceOf(wallet)).toBe(before);
    const ok = await mcp.ok<{ status: string }>('tx_submit', {
      preparedId: await prepareBid(mcp, auctionId, 2),
    });
    expect(ok.status).toBe('confirmed');
  });

  it('keeps a daily cap on disk and refuses what would exceed it', async () => {
    const { wallet, mcp } = await bidderWith({ DAILY_SPEND_CAP_SOL: '3' });
    const first = await createViaApi(env, seller);
    const second = await createViaApi(env, seller);
    await mcp.ok('tx_submit', { preparedId: await prepareBid(mcp, first.auctionId, 1.5) });

    const ledger = JSON.parse(await readFile(mcp.ledgerPath, 'utf8')) as { entries: { lamports: string }[] };
    expect(ledger.entries).toHaveLength(1);
    expect(BigInt(ledger.entries[0]!.lamports)).toBeGreaterThanOrEqual(1_500_000_000n);
    // A restarted server reads the same total.
    expect(await new SpendLedger(mcp.ledgerPath).spentToday()).toBe(BigInt(ledger.entries[0]!.lamports));

    const before = await balanceOf(wallet);
    const refusal = await mcp.fails('tx_submit', {
      preparedId: await prepareBid(mcp, second.auctionId, 1.6),
    });
    expect(refusal).toMatch(
      /policy refused \(daily_cap\): over the daily cap: 1\.5\d* SOL already signed today/,
    );
    expect(await balanceOf(wallet)).toBe(before);
    const policy = await mcp.ok<{ spentTodaySol: string; dailySpendCapSol: string }>('policy_get');
    expect(policy).toMatchObject({ dailySpendCapSol: '3' });
    expect(Number(policy.spentTodaySol)).toBeGreaterThanOrEqual(1.5);
  });

  it('DRY_RUN simulates and reports, signs and sends nothing', async () => {
    const { wallet, mcp } = await bidderWith({ DRY_RUN: 'true' });
    const { auctionId } = await createViaApi(env, seller);
    const before = await balanceOf(wallet);
    const result = await mcp.ok<{ status: string; signature: null; outflowSol: string }>('tx_submit', {
      preparedId: await prepareBid(mcp, auctionId, 1.2),
    });
    expect(result).toMatchObject({ status: 'dry_run', signature: null });
    expect(Number(result.outflowSol)).toBeGreaterThanOrEqual(1.2);
    expect(await balanceOf(wallet)).toBe(before);
    expect((await mcp.ok<{ totalBids: number }>('auction_get', { auctionId })).totalBids).toBe(0);
  });

  /** Puts a hand-made transaction in the store as if a prepare tool had returned it. */
  async function plant(
    mcp: Harness,
    tx: Transaction,
    kind: PreparedKind,
    declaredLamports: bigint,
    override: { lastValidBlockHeight?: number } = {},
  ) {
    const latest = await env.connection.getLatestBlockhash();
    const { blockhash } = latest;
    const lastValidBlockHeight = override.lastValidBlockHeight ?? latest.lastValidBlockHeight;
    tx.recentBlockhash = blockhash;
    const bytes = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    const { summary } = await summarizeTransaction(bytes, null);
    return mcp.ctx.prepared.put({
      kind,
      bytes,
      auctionId: 'planted',
      declaredLamports,
      blockhash,
      lastValidBlockHeight,
      expiresAt: Date.now() + 60_000,
      summary,
    }).id;
  }

  it('refuses programs outside the allowlist, another fee payer, and outflow beyond what was declared', async () => {
    const { wallet, mcp } = await bidderWith({});
    const before = await balanceOf(wallet);

    // A direct Name Service transfer would give a domain away without moving SOL.
    const [domain] = await env.t.registerDomains(wallet.keypair.publicKey, 1);
    const giveAway = new Transaction({ feePayer: wallet.keypair.publicKey }).add(
      new TransactionInstruction({
        programId: new PublicKey(NAME_PROGRAM_ID),
        keys: [{ pubkey: wallet.keypair.publicKey, isSigner: true, isWritable: false }],
        data: Buffer.from(`transfer ${domain}`),
      }),
    );
    expect(
      await mcp.fails('tx_submit', { preparedId: await plant(mcp, giveAway, 'auction_create', 0n) }),
    ).toMatch(new RegExp(`policy refused \\(program_allowlist\\).*${NAME_PROGRAM_ID}`));

    const memo = new Transaction({ feePayer: wallet.keypair.publicKey }).add(
      new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [], data: Buffer.from('hi') }),
    );
    expect(await mcp.fails('tx_submit', { preparedId: await plant(mcp, memo, 'bid_place', 0n) })).toMatch(
      new RegExp(`policy refused \\(program_allowlist\\).*${MEMO_PROGRAM.toBase58()}`),
    );

    const other = Keypair.generate().publicKey;
    const foreignPayer = new Transaction({ feePayer: other }).add(
      SystemProgram.transfer({ fromPubkey: other, toPubkey: wallet.keypair.publicKey, lamports: 1 }),
    );
    expect(
      await mcp.fails('tx_submit', { preparedId: await plant(mcp, foreignPayer, 'bid_place', 0n) }),
    ).toMatch(/policy refused \(fee_payer\)/);

    // Declared as a 1 SOL bid, the transaction would move 3 SOL: the simulation exposes it.
    const drain = new Transaction({ feePayer: wallet.keypair.publicKey }).add(
      SystemProgram.transfer({
        fromPubkey: wallet.keypair.publicKey,
        toPubkey: other,
        lamports: 3_000_000_000,
      }),
    );
    expect(
      await mcp.fails('tx_submit', { preparedId: await plant(mcp, drain, 'bid_place', 1_000_000_000n) }),
    ).toMatch(/policy refused \(outflow_mismatch\): the simulation moves 3\.000005 SOL/);
    expect(await balanceOf(wallet)).toBe(before);
  });

  it('refuses an expired prepared transaction and asks to prepare again', async () => {
    const { wallet, mcp } = await bidderWith({});
    const tx = new Transaction({ feePayer: wallet.keypair.publicKey }).add(
      SystemProgram.transfer({
        fromPubkey: wallet.keypair.publicKey,
        toPubkey: wallet.keypair.publicKey,
        lamports: 1,
      }),
    );
    const id = await plant(mcp, tx, 'bid_place', 1n, { lastValidBlockHeight: 0 });
    expect(await mcp.fails('tx_submit', { preparedId: id })).toMatch(
      /expired \(blockhash too old\); prepare it again/,
    );
    expect(await mcp.fails('tx_submit', { preparedId: id })).toMatch(/unknown or expired preparedId/);
  });

  it('above CONFIRM_ABOVE_SOL: refuses without elicitation, asks the user when the client can', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const plain = await bidderWith({ CONFIRM_ABOVE_SOL: '1' });
    expect(
      await plain.mcp.fails('tx_submit', { preparedId: await prepareBid(plain.mcp, auctionId, 1.1) }),
    ).toMatch(/policy refused \(confirmation\).*no elicitation support/);

    const asked: string[] = [];
    let answer = false;
    const eliciting = await bidderWith(
      { CONFIRM_ABOVE_SOL: '1' },
      { clientOptions: { capabilities: { elicitation: { form: {} } } } },
    );
    eliciting.mcp.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: answer } };
    });
    expect(
      await eliciting.mcp.fails('tx_submit', { preparedId: await prepareBid(eliciting.mcp, auctionId, 1.2) }),
    ).toMatch(/user declined/);
    answer = true;
    const sent = await eliciting.mcp.ok<{ status: string }>('tx_submit', {
      preparedId: await prepareBid(eliciting.mcp, auctionId, 1.3),
    });
    expect(sent.status).toBe('confirmed');
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatch(/moves 1\.3\d* SOL out of wallet/);
  });

  it('never shows the API key or the secret key in any tool output', async () => {
    const { wallet, mcp } = await bidderWith({});
    const { auctionId } = await createViaApi(env, seller);
    const texts: string[] = [];
    for (const [name, args] of [
      ['policy_get', {}],
      ['bid_place', { auctionId, amountSol: 1 }],
      ['bid_place', { auctionId, amountSol: 0.5 }],
      ['user_profile_get', {}],
    ] as const) {
      const result = await mcp.call(name, args);
      texts.push(textOf(result), JSON.stringify(result.structuredContent ?? {}));
    }
    const everything = texts.join('\n');
    expect(everything).not.toContain(wallet.key);
    expect(everything).not.toContain(bs58.encode(wallet.keypair.secretKey));
    expect(everything).not.toContain(Buffer.from(wallet.keypair.secretKey).toString('base64'));
  });
});
