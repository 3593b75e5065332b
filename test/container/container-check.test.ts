import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

/**
 * The image and compose.yaml, built and run with podman (scripts/container-check.sh says what it checks). Minutes
 * long, as root, and it needs podman, podman-compose and debootstrap, so it runs only when asked: TEST_CONTAINERS=1.
 */
test('the image and the compose topology run and serve the school on HTTPS', {
  skip: process.env.TEST_CONTAINERS === '1' ? false : 'set TEST_CONTAINERS=1 (needs root, podman, podman-compose)',
  timeout: 30 * 60_000,
}, () => {
  const run = spawnSync('bash', ['scripts/container-check.sh'], { encoding: 'utf8', timeout: 30 * 60_000 });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
});
