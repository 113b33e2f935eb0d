import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../mcp/config.js';
import { signingPolicyOf } from '../../mcp/signing/policy.js';

describe('MCP configuration from the environment', () => {
  it('fails at start naming every bad variable', () => {
    expect(() =>
      parseMcpConfig({ MAX_BID_SOL: '1.5 SOL', SNS_AUCTION_API_URL: 'nope', DRY_RUN: 'yes' }),
    ).toThrow(
      /SNS_AUCTION_API_URL: .*\n.*SNS_AUCTION_API_KEY is required.*\n.*MAX_BID_SOL must be a SOL amount.*\n.*DRY_RUN/,
    );
  });

  it('gives safe defaults and exact lamport limits', () => {
    const config = parseMcpConfig({ SNS_AUCTION_API_KEY: 'sk_test_abcdefgh', MAX_BID_SOL: '0.000000001' });
    expect(config).toMatchObject({
      apiUrl: 'http://127.0.0.1:3000/api/v1',
      walletKeypairPath: null,
      spendLedgerFile: null,
      policy: { dailySpendCapSol: '20', confirmAboveSol: '2', dryRun: false },
      http: { host: '127.0.0.1', port: 3333, bearerToken: null },
    });
    const policy = signingPolicyOf(config.policy);
    expect(policy.maxBidLamports).toBe(1n);
    // The auction program, System and ComputeBudget; the Name Service only through the auction program.
    expect(policy.allowedPrograms.size).toBe(3);
  });
});
