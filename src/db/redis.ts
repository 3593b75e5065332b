import { Redis } from 'ioredis';

/**
 * A Redis connection as every part of the school opens one: commands sent while it (re)connects wait in the offline
 * queue, and a command fails after two reconnection attempts instead of ioredis's twenty, so a Redis outage shows
 * up as errors the callers handle (or fall back from) rather than as requests that hang.
 */
export const connectRedis = (url: string) => new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
