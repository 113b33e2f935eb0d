/** Mainnet rent: 3480 lamports per byte-year, exempt at two years, plus 128 bytes of account overhead. */
export function minimumBalance(dataLength: number): bigint {
  return BigInt(128 + dataLength) * 6960n;
}

/**
 * A validator refuses a transaction that leaves an account "rent paying" (funded below the
 * rent-exempt minimum) unless it already was, with the same size, and did not gain lamports.
 */
export function isRentStateTransitionAllowed(
  pre: { lamports: bigint; dataLength: number },
  post: { lamports: bigint; dataLength: number },
): boolean {
  if (!isRentPaying(post)) return true;
  return isRentPaying(pre) && pre.dataLength === post.dataLength && post.lamports <= pre.lamports;
}

function isRentPaying(account: { lamports: bigint; dataLength: number }): boolean {
  return account.lamports > 0n && account.lamports < minimumBalance(account.dataLength);
}
