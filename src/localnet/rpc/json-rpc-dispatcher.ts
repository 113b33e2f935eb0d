import type { Logger } from 'pino';
import { TransactionDecodeError } from '../runtime/sanitized-transaction.js';
import { positional } from './params.js';
import type { RpcContext, RpcMethods } from './rpc-context.js';
import { RPC_ERRORS, RpcError } from './rpc-error.js';

type Id = string | number | null;
type Response = { jsonrpc: '2.0'; id: Id; result: unknown } | { jsonrpc: '2.0'; id: Id; error: unknown };

type MaybePromise<T> = T | Promise<T>;

const MAX_BATCH = 1_000;

function then<T, U>(value: MaybePromise<T>, f: (v: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/**
 * JSON-RPC 2.0 over a request body: single calls and batches; ids echoed exactly as given;
 * notifications (no id) get no response. Total: any input yields a JSON-RPC answer, never a throw.
 */
export class JsonRpcDispatcher {
  constructor(
    private readonly methods: RpcMethods,
    private readonly context: RpcContext,
    private readonly logger: Logger,
  ) {}

  /**
   * The response body, or undefined when there is nothing to answer (only notifications). Most
   * methods answer synchronously; sendTransaction waits for signature verification.
   */
  handle(body: string): MaybePromise<string | undefined> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return JSON.stringify(errorResponse(null, RPC_ERRORS.parse()));
    }
    if (!Array.isArray(request))
      return then(this.call(request), (response) => response && JSON.stringify(response));
    if (request.length === 0 || request.length > MAX_BATCH) {
      return JSON.stringify(errorResponse(null, RPC_ERRORS.invalidRequest()));
    }
    const calls = request.map((r) => this.call(r));
    const finish = (responses: (Response | undefined)[]) => {
      const answered = responses.filter((r): r is Response => r !== undefined);
      return answered.length > 0 ? JSON.stringify(answered) : undefined;
    };
    return calls.some((c) => c instanceof Promise)
      ? Promise.all(calls).then(finish)
      : finish(calls as Response[]);
  }

  private call(request: unknown): MaybePromise<Response | undefined> {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return errorResponse(null, RPC_ERRORS.invalidRequest());
    }
    const { jsonrpc, method, params, id } = request as Record<string, unknown>;
    const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
    if (!validId || jsonrpc !== '2.0' || typeof method !== 'string') {
      return errorResponse(validId ? (id ?? null) : null, RPC_ERRORS.invalidRequest());
    }
    const replyId = id ?? null;
    const answer = (response: Response) => (id === undefined ? undefined : response);
    const handler = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    if (!handler) return answer(errorResponse(replyId, RPC_ERRORS.methodNotFound()));
    const fail = (e: unknown) => answer(errorResponse(replyId, this.toRpcError(e, method)));
    try {
      const result = handler(positional(params), this.context);
      if (result instanceof Promise) {
        return result.then((value) => answer({ jsonrpc: '2.0', id: replyId, result: value }), fail);
      }
      return answer({ jsonrpc: '2.0', id: replyId, result });
    } catch (e) {
      return fail(e);
    }
  }

  private toRpcError(e: unknown, method: string): RpcError {
    if (e instanceof RpcError) return e;
    if (e instanceof TransactionDecodeError) return RPC_ERRORS.params(e.message);
    this.logger.error({ err: e, method }, 'rpc handler failed');
    return RPC_ERRORS.internal();
  }
}

function errorResponse(id: Id, error: RpcError): Response {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
