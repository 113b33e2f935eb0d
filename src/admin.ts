/**
 * Operator commands against the service's Redis (REDIS_URL, REDIS_PREFIX):
 *   npm run admin -- analytics-limit <keyId> <perMinute|default>   per-key analytics limit
 *   npm run admin -- show-key <keyId>                               a key's record (no secret)
 */
import { ApiKeyStore } from './redis/api-key-store.js';
import { connectRedis } from './redis/client.js';
import { createRedisKeys } from './redis/keys.js';

const USAGE = `usage:
  npm run admin -- analytics-limit <keyId> <perMinute|default>
  npm run admin -- show-key <keyId>
environment: REDIS_URL (required), REDIS_PREFIX (default sns:)`;

function fail(message: string): never {
  console.error(`admin: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, keyId, value] = process.argv.slice(2);
  const redisUrl = process.env['REDIS_URL'];
  if (!redisUrl) fail('REDIS_URL is not set');
  if (!command || !keyId) fail('missing arguments');
  const redis = await connectRedis(redisUrl);
  try {
    const store = new ApiKeyStore(redis, createRedisKeys(process.env['REDIS_PREFIX'] ?? 'sns:'));
    const record = await store.get(keyId);
    if (!record) fail(`no key ${keyId}`);
    if (command === 'analytics-limit') {
      const perMinute = value === 'default' ? null : Number(value);
      if (perMinute !== null && !(Number.isInteger(perMinute) && perMinute >= 1 && perMinute <= 100_000)) {
        fail('the limit must be an integer from 1 to 100000, or "default"');
      }
      await store.setAnalyticsRateLimit(keyId, perMinute);
      console.log(`${keyId}: analytics limit ${perMinute ?? 'default (ANALYTICS_RATE_LIMIT)'} per minute`);
    } else if (command === 'show-key') {
      console.log(JSON.stringify(record, null, 2));
    } else {
      fail(`unknown command ${command}`);
    }
  } finally {
    await redis.quit();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
