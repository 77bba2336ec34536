import { SofaError } from '@sofa-ts/core';
import type { RedisOptions } from 'bullmq';

/** The queue all sweeps use unless told otherwise (`--queue-name`). */
export const DEFAULT_QUEUE_NAME = 'sofa-ts-sweep';

/**
 * Connection options from `redis://[user:password@]host:port[/db]` (`rediss://` for TLS).
 * `maxRetriesPerRequest: null` is what BullMQ's workers require: a command waits for the
 * connection to come back instead of failing.
 */
export function redisOptions(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SofaError(`--queue '${url}': expected redis://HOST:PORT`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new SofaError(`--queue '${url}': expected redis://HOST:PORT (or rediss:// for TLS)`);
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new SofaError(`--queue '${url}': the database is a number (redis://HOST:PORT/0)`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== '' ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** Redis key of a scene bundle (content-addressed, shared by the sweeps of the same scene). */
export const bundleKey = (hash: string): string => `sofa-ts:bundle:${hash}`;

/** Bundles stay in Redis for a week after a sweep last put them there. */
export const BUNDLE_TTL_S = 7 * 24 * 3600;
