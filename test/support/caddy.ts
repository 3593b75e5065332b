import { execFileSync } from 'node:child_process';

/** Why a test that runs Caddy cannot run here (Debian's package is missing), or false when it can. */
export const caddyMissing: string | false = (() => {
  try {
    execFileSync('caddy', ['version'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'needs caddy (Debian package caddy)';
  }
})();

/** Why a cluster test behind Caddy cannot run here: it needs PostgreSQL, Redis and Caddy. */
export const clusterMissing: string | false = !process.env.TEST_DATABASE_URL
  ? 'needs TEST_DATABASE_URL'
  : !process.env.TEST_REDIS_URL
    ? 'needs TEST_REDIS_URL'
    : caddyMissing;
