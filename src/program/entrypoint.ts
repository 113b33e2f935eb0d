/**
 * The auction program's entrypoint: decode the instruction (Anchor layout: 8-byte discriminator +
 * Borsh args), log its name like Anchor does, and dispatch. Interface: docs/program.md.
 */
import { BorshError } from '../core/codec/borsh.js';
import { type AuctionInstruction, decodeAuctionInstruction } from '../core/program/instructions.js';
import { type InvokeContext, type ProgramEntrypoint, ProgramError } from '../localnet/runtime/program-abi.js';
import { cancel } from './cancel.js';
import { createAuction } from './create-auction.js';
import { initializeConfig } from './initialize-config.js';
import { placeBid } from './place-bid.js';
import { settle } from './settle.js';

const LOG_NAMES: Record<AuctionInstruction['name'], string> = {
  initialize_config: 'InitializeConfig',
  create_auction: 'CreateAuction',
  place_bid: 'PlaceBid',
  settle: 'Settle',
  cancel: 'Cancel',
};

export const auctionProgram: ProgramEntrypoint = (ctx: InvokeContext) => {
  const ix = decodeInstruction(ctx.data);
  ctx.log(`Instruction: ${LOG_NAMES[ix.name]}`);
  switch (ix.name) {
    case 'initialize_config':
      return initializeConfig(ctx, ix.args);
    case 'create_auction':
      return createAuction(ctx, ix.args);
    case 'place_bid':
      return placeBid(ctx, ix.args);
    case 'settle':
      return settle(ctx, ix.args);
    case 'cancel':
      return cancel(ctx, ix.args);
  }
};

function decodeInstruction(data: Uint8Array): AuctionInstruction {
  try {
    return decodeAuctionInstruction(data);
  } catch (error) {
    if (error instanceof BorshError) throw new ProgramError('InvalidInstructionData', error.message);
    throw error;
  }
}
