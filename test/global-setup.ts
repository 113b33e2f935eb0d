import type { TestProject } from 'vitest/node';
import { spawnRedisServer } from '../src/redis/spawn-redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

/** One private redis-server for the whole run (unless REDIS_URL points at one); files isolate by key prefix. */
export default async function setup(project: TestProject) {
  const external = process.env['REDIS_URL'];
  if (external) {
    project.provide('redisUrl', external);
    return;
  }
  const redis = await spawnRedisServer();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
