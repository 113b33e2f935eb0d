/** A JSON-RPC error as the validator's RPC returns it. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const RPC_ERRORS = {
  parse: () => new RpcError(-32700, 'Parse error'),
  invalidRequest: () => new RpcError(-32600, 'Invalid request'),
  methodNotFound: () => new RpcError(-32601, 'Method not found'),
  /** -32602 with the message as given (the RPC's own checks). */
  params: (message: string) => new RpcError(-32602, message),
  /** -32602 for params that do not deserialize. */
  invalidParams: (detail: string) => new RpcError(-32602, `Invalid params: ${detail}`),
  invalidParam: (detail: string) => new RpcError(-32602, `Invalid param: ${detail}`),
  internal: () => new RpcError(-32603, 'Internal error'),
} as const;
