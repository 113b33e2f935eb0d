import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuctionInstruction,
  fetchAuction,
  fetchConfig,
  findAuctionAddress,
  findConfigAddress,
  initializeConfigInstruction,
  randomAuctionNonce,
} from '../../src/chain/auction-client.js';
import { AUCTION_PROGRAM_ID } from '../../src/core/program/ids.js';
import { decodeAuctionInstruction, encodeAuctionInstruction } from '../../src/core/program/instructions.js';
import { createAuction, expectDomainOwners } from '../helpers/auction.js';
import { expectProgramError, SOL, startTestLocalnet, type TestLocalnet } from '../helpers/localnet.js';

describe('listing rules and the config over the wire', () => {
  let t: TestLocalnet;
  let seller: Keypair;

  beforeAll(async () => {
    t = await startTestLocalnet({ feeBps: 42 });
    seller = await t.fundedKeypair();
  });
  afterAll(() => t.close());

  const list = (domainNames: string[], extra: Partial<Parameters<typeof createAuctionInstruction>[0]> = {}) =>
    t.send(
      [
        createAuctionInstruction({
          seller: seller.publicKey,
          nonce: randomAuctionNonce(),
          auctionType: 'standard',
          domainNames,
          durationSeconds: 3_600,
          startingPrice: SOL,
          minIncrement: SOL,
          ...extra,
        }),
      ],
      [seller],
    );

  it('refuses listings that break the rules and escrows nothing for them', async () => {
    const [mine] = await t.registerDomains(seller.publicKey);
    const [theirs] = await t.registerDomains(Keypair.generate().publicKey);
    await expectProgramError(list([theirs!]), 'DomainNotOwnedBySeller');
    await expectProgramError(list(['never-registered.sol']), 'DomainAccountMismatch');
    const uppercase = createAuctionInstruction({
      seller: seller.publicKey,
      nonce: randomAuctionNonce(),
      auctionType: 'standard',
      domainNames: [mine!],
      durationSeconds: 3_600,
      startingPrice: SOL,
      minIncrement: SOL,
    });
    const decoded = decodeAuctionInstruction(uppercase.data);
    if (decoded.name !== 'create_auction') throw new Error('expected create_auction');
    const renamed = { ...decoded, args: { ...decoded.args, domainNames: [mine!.toUpperCase()] } };
    uppercase.data = Buffer.from(encodeAuctionInstruction(renamed));
    await expectProgramError(t.send([uppercase], [seller]), 'InvalidDomainName');
    await expectProgramError(list([mine!, mine!]), 'InvalidDomainName');
    await expectProgramError(list([]), 'InvalidDomainCount');
    await expectProgramError(list([mine!], { durationSeconds: 899 }), 'InvalidDuration');
    await expectProgramError(list([mine!], { durationSeconds: 2_592_001 }), 'InvalidDuration');
    await expectProgramError(list([mine!], { startTs: (await t.chainTime()) - 10n }), 'InvalidStartTime');
    await expectProgramError(
      list([mine!], { startTs: (await t.chainTime()) + 31n * 86_400n }),
      'InvalidStartTime',
    );
    await expectProgramError(list([mine!], { minIncrement: 0n }), 'InvalidPrice');
    await expectProgramError(list([mine!], { buyNowPrice: SOL }), 'InvalidPrice');
    await expectProgramError(list([mine!], { auctionType: 'dutch', dutchFloor: SOL }), 'InvalidPrice');
    await expectProgramError(list([mine!], { auctionType: 'buy_now' }), 'InvalidPrice');
    await expectProgramError(list([mine!], { auctionType: 'reserve' }), 'InvalidPrice');
    await expectProgramError(list([mine!], { reserveCommitment: new Uint8Array(32) }), 'InvalidPrice');
    await expectProgramError(
      list([mine!], { snipeEnabled: true, snipeExtensionSeconds: 86_401 }),
      'InvalidSnipeSettings',
    );
    await expectDomainOwners(t, [mine!], seller.publicKey);
    await list([mine!]);
  });

  it('refuses an auction account that is not the PDA of seller and nonce', async () => {
    const [name] = await t.registerDomains(seller.publicKey);
    const ix = createAuctionInstruction({
      seller: seller.publicKey,
      nonce: 1n,
      auctionType: 'standard',
      domainNames: [name!],
      durationSeconds: 3_600,
      startingPrice: SOL,
      minIncrement: SOL,
    });
    ix.keys[1] = {
      pubkey: new PublicKey(findAuctionAddress(seller.publicKey, 2n).address),
      isSigner: false,
      isWritable: true,
    };
    await expectProgramError(t.send([ix], [seller]), 'InvalidAuctionAddress');
  });

  it('starts a delayed auction at the requested time', async () => {
    const startTs = (await t.chainTime()) + 3_000n;
    const { auction } = await createAuction(t, { startTs, durationSeconds: 900 });
    expect(auction).toMatchObject({ startTs, endTs: startTs + 900n, state: 'active', bidCount: 0 });
    expect(await fetchAuction(t.connection, findConfigAddress().address)).toBeNull();
  });

  it('serves the genesis config, and refuses to initialize it twice', async () => {
    const config = await fetchConfig(t.connection);
    expect(config).toMatchObject({
      keeper: t.keeper.publicKey.toBase58(),
      treasury: t.treasury.toBase58(),
      feeBps: 42,
      defaultSnipeWindowSeconds: 60,
    });
    const configInfo = await t.connection.getAccountInfo(new PublicKey(findConfigAddress().address));
    expect(configInfo?.owner.toBase58()).toBe(AUCTION_PROGRAM_ID);

    const again = initializeConfigInstruction({
      authority: seller.publicKey,
      keeper: seller.publicKey,
      treasury: seller.publicKey,
    });
    await expect(t.send([again], [seller])).rejects.toThrow(/instruction requires an uninitialized account/);
  });
});
