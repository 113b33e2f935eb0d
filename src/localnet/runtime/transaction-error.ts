import { describeInstructionError, type InstructionErrorJson } from './program-abi.js';

/** Solana's `TransactionError` in the JSON form RPC nodes return (`err` of statuses, meta, simulations). */
export type TransactionErrorJson =
  | 'AccountLoadedTwice'
  | 'AccountNotFound'
  | 'ProgramAccountNotFound'
  | 'InsufficientFundsForFee'
  | 'InvalidAccountForFee'
  | 'AlreadyProcessed'
  | 'BlockhashNotFound'
  | 'InvalidProgramForExecution'
  | 'SanitizeFailure'
  | 'SignatureFailure'
  | { InstructionError: [number, InstructionErrorJson] }
  | { InsufficientFundsForRent: { account_index: number } };

const TEXT: Record<Extract<TransactionErrorJson, string>, string> = {
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  SignatureFailure: 'Transaction did not pass signature verification',
};

/** The `Display` text of a TransactionError, as in `Transaction simulation failed: <text>`. */
export function describeTransactionError(err: TransactionErrorJson): string {
  if (typeof err === 'string') return TEXT[err];
  if ('InstructionError' in err) {
    const [index, error] = err.InstructionError;
    return `Error processing Instruction ${index}: ${describeInstructionError(error)}`;
  }
  return `Transaction results in an account (${err.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
}
