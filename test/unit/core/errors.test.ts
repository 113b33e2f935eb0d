import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, isAppError, isErrorCode } from '../../../src/core/errors.js';

describe('AppError', () => {
  it('is the closed set of the API spec', () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        'AUCTION_ENDED',
        'BID_TOO_LOW',
        'INTERNAL_ERROR',
        'INVALID_REQUEST',
        'NOT_FOUND',
        'RATE_LIMITED',
        'UNAUTHORIZED',
      ].sort(),
    );
    expect(isErrorCode('BID_TOO_LOW')).toBe(true);
    expect(isErrorCode('VALIDATION_ERROR')).toBe(false);
  });

  it('carries code, message, status override, details and cause', () => {
    const cause = new Error('rpc down');
    const e = new AppError('UNAUTHORIZED', 'read-only key', {
      httpStatus: 403,
      details: { reason: 'read_only' },
      cause,
    });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      name: 'AppError',
      code: 'UNAUTHORIZED',
      message: 'read-only key',
      httpStatus: 403,
    });
    expect(e.details).toEqual({ reason: 'read_only' });
    expect(e.cause).toBe(cause);
    const bare = new AppError('NOT_FOUND', 'auction not found');
    expect(bare.httpStatus).toBeUndefined();
    expect(bare.details).toBeUndefined();
    expect('cause' in bare).toBe(false);
  });

  it('narrows by code', () => {
    const e: unknown = new AppError('BID_TOO_LOW', 'Bid too low: minimum bid is 2.6 SOL', {
      details: { minimumBid: 2.6 },
    });
    expect(isAppError(e)).toBe(true);
    expect(isAppError(e, 'AUCTION_ENDED')).toBe(false);
    if (!isAppError(e, 'BID_TOO_LOW')) throw new Error('expected BID_TOO_LOW');
    expect(e.details?.minimumBid).toBe(2.6);
  });

  it('recognises an AppError from another copy of the module, and nothing else', () => {
    const foreign = Object.assign(new Error('x'), { name: 'AppError', code: 'NOT_FOUND' });
    expect(isAppError(foreign, 'NOT_FOUND')).toBe(true);
    expect(isAppError(Object.assign(new Error('x'), { name: 'AppError', code: 'NOPE' }))).toBe(false);
    expect(isAppError(new Error('plain'))).toBe(false);
    expect(isAppError({ name: 'AppError', code: 'NOT_FOUND' })).toBe(false);
    expect(isAppError(undefined)).toBe(false);
  });
});
