import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

const PRODUCTION = {
  REDIS_URL: 'redis://redis:6379',
  SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com',
  KEEPER_KEYPAIR: '/run/secrets/keeper.json',
  RESERVE_SECRET: 'x'.repeat(32),
};

describe('parseConfig', () => {
  it('fills embedded defaults in dev', () => {
    const c = parseConfig({}, 'dev');
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      localnetPort: 8899,
      cluster: 'localnet',
      redisPrefix: 'sns:',
    });
    expect(c.redisUrl).toBeUndefined();
    expect(c.webhookAllowPrivateTargets).toBe(true);
  });

  it('refuses production without its external pieces, naming each', () => {
    expect(() => parseConfig({ REDIS_URL: 'redis://r:6379' }, 'production')).toThrow(
      new ConfigError(
        'production mode needs SOLANA_RPC_URL, KEEPER_KEYPAIR, RESERVE_SECRET (see docs/configuration.md); use `npm run dev` for embedded defaults',
      ),
    );
  });

  it('derives the cluster from the RPC URL and keeps private webhook targets off in production', () => {
    const c = parseConfig(PRODUCTION, 'production');
    expect(c.cluster).toBe('mainnet-beta');
    expect(c.webhookAllowPrivateTargets).toBe(false);
    expect(
      parseConfig({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, 'production')
        .webhookAllowPrivateTargets,
    ).toBe(true);
  });

  it('names every invalid variable', () => {
    expect(() =>
      parseConfig({ PORT: 'eighty', TRUST_PROXY: 'maybe', RESERVE_SECRET: 'short' }, 'dev'),
    ).toThrow(
      /PORT:[\s\S]*RESERVE_SECRET:[\s\S]*TRUST_PROXY:|PORT:[\s\S]*TRUST_PROXY:[\s\S]*RESERVE_SECRET:/,
    );
  });
});
