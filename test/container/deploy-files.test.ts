import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { MEMORY_FLAGS } from '../../src/memory-budget.ts';
import { caddyMissing } from '../support/caddy.ts';

/**
 * The deployment files say again what the code and docs/deploy.md say once: the Node version, the memory bounds of
 * `npm start`, the unit, the settings and the Caddyfile shown on the page. Each copy is checked against its source, so
 * a change to one that forgets the other fails here rather than on a school's server.
 */

const read = (path: string) => readFileSync(path, 'utf8');
const page = read('docs/deploy.md');

/** A file without its comment lines, as the page shows it. */
const withoutComments = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n')
    .trim();

/** The fenced blocks of docs/deploy.md whose info string is `info`, in order. */
function blocks(info: string): string[] {
  const found: string[] = [];
  let open: { info: string; lines: string[] } | null = null;
  for (const line of page.split('\n')) {
    const fence = /^```(\S*)$/.exec(line);
    if (!fence) open?.lines.push(line);
    else if (open === null) open = { info: fence[1] ?? '', lines: [] };
    else {
      if (open.info === info) found.push(open.lines.join('\n').trimEnd());
      open = null;
    }
  }
  return found;
}

describe('deployment files', () => {
  test("docs/deploy.md installs the Node version package.json's devDependencies name", () => {
    const { devDependencies } = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    const installed = /npm install -g node@(\S+)/.exec(page)?.[1];
    assert.equal(installed, devDependencies.node);
  });

  test('the unit and the image start Node with the memory bounds npm start gives it', () => {
    const flags = MEMORY_FLAGS.join(' ');
    assert.match(read('package.json'), new RegExp(`"start": "node ${flags} src/main.ts"`));
    assert.match(
      read('docs/deploy/lyceum.service'),
      new RegExp(`^ExecStart=/usr/local/bin/node ${flags} src/main.ts$`, 'm'),
    );
    const cmd = /^CMD (\[.*\])$/m.exec(read('Containerfile'))?.[1] ?? '[]';
    assert.deepEqual(JSON.parse(cmd), ['node', ...MEMORY_FLAGS, 'src/main.ts']);
  });

  test('the page shows the unit, the settings and the Caddyfile as the files under docs/deploy/ are', () => {
    assert.ok(blocks('ini').includes(withoutComments(read('docs/deploy/lyceum.service'))), 'the unit');
    assert.ok(blocks('sh').includes(withoutComments(read('docs/deploy/lyceum.env'))), 'the settings');
    assert.ok(blocks('').includes(read('docs/deploy/Caddyfile').trimEnd()), 'the Caddyfile');
  });

  test("compose.yaml's Caddyfile is one Caddy reads, for a certificate from Let's Encrypt or its own", {
    skip: caddyMissing,
  }, () => {
    for (const tls of ['you@school.example', 'internal']) {
      const json = execFileSync(
        'caddy',
        ['adapt', '--config', 'docs/deploy/compose.Caddyfile', '--adapter', 'caddyfile'],
        {
          env: { ...process.env, BASE_URL: 'https://school.example', CADDY_TLS: tls },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const issuers = JSON.parse(json).apps.tls.automation.policies[0].issuers as { module: string; email?: string }[];
      assert.equal(issuers[0]?.module, tls === 'internal' ? 'internal' : 'acme');
    }
  });
});
