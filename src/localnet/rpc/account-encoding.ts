import bs58 from 'bs58';
import type { LedgerAccount } from '../runtime/ledger.js';
import { type Config, integer } from './params.js';
import { RPC_ERRORS, RpcError } from './rpc-error.js';

/** `binary` is the legacy default (a bare base58 string) used when no encoding is given. */
export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed';

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

export interface AccountEncodingOptions {
  readonly encoding: AccountEncoding;
  readonly dataSlice?: DataSlice;
}

const MAX_BASE58_BYTES = 128;

// Ledger data arrays are never mutated, so an encoding computed once stays right.
const base64Cache = new WeakMap<Uint8Array, string>();

export function accountEncodingOptions(
  config: Config,
  fallback: AccountEncoding = 'binary',
): AccountEncodingOptions {
  const encoding = config['encoding'] ?? fallback;
  if (encoding === 'base64+zstd') {
    throw RPC_ERRORS.params('base64+zstd encoding is not supported by this localnet; use base64');
  }
  if (encoding !== 'binary' && encoding !== 'base58' && encoding !== 'base64' && encoding !== 'jsonParsed') {
    throw RPC_ERRORS.invalidParams(
      `unknown variant \`${String(encoding)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``,
    );
  }
  const slice = config['dataSlice'];
  if (slice === undefined || slice === null) return { encoding };
  if (typeof slice !== 'object') throw RPC_ERRORS.invalidParams('dataSlice must be {offset, length}');
  const { offset, length } = slice as Record<string, unknown>;
  return {
    encoding,
    dataSlice: { offset: integer(offset, 'dataSlice.offset'), length: integer(length, 'dataSlice.length') },
  };
}

/** An account in the RPC's `UiAccount` form. */
export function encodeAccount(account: LedgerAccount, options: AccountEncodingOptions) {
  return {
    lamports: Number(account.lamports),
    owner: account.owner,
    data: encodeData(account.data, options),
    executable: account.executable,
    rentEpoch: Number(account.rentEpoch),
    space: account.data.length,
  };
}

function encodeData(
  data: Uint8Array,
  { encoding, dataSlice }: AccountEncodingOptions,
): string | [string, string] {
  const bytes = dataSlice ? data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : data;
  if (encoding === 'binary' || encoding === 'base58') {
    if (bytes.length > MAX_BASE58_BYTES) {
      throw new RpcError(
        -32600,
        'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
      );
    }
    const text = bs58.encode(bytes);
    return encoding === 'binary' ? text : [text, 'base58'];
  }
  // jsonParsed: no account the localnet holds has a parser, and the RPC then falls back to base64.
  return [base64(bytes, bytes === data), 'base64'];
}

function base64(bytes: Uint8Array, cacheable: boolean): string {
  if (!cacheable) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let text = base64Cache.get(bytes);
  if (text === undefined) {
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    base64Cache.set(bytes, text);
  }
  return text;
}
