import type { Redis, RedisOptions } from 'ioredis';

/**
 * A connection of its own, duplicated from the app's shared Redis client without the shared
 * client's auto-pipelining: BullMQ's connections (auto-pipelining was reported to lose jobs'
 * data and to make jobs go missing from the active list under load: OptimalBits/bull#2276,
 * taskforcesh/bullmq#457) and the subscribers' (a subscribed connection sends nothing else).
 */
export const ownConnection = (redis: Redis, options: RedisOptions = {}): Redis =>
  redis.duplicate({ ...options, enableAutoPipelining: false });
