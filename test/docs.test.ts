import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The README is the door and docs/ the manual: every relative link between them must lead somewhere. A link to a
 * Markdown file's #anchor must name one of its headings, slugged as GitHub slugs them.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 250;

/** README.md and every .md file under docs/, as paths relative to the repository. */
function documentationFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs.sort()];
}

/** The text outside fenced code blocks and inline code spans: links there are examples, not links. */
function proseOf(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0];
      else if (marker[0] === fence) fence = null;
      lines.push('');
      continue;
    }
    lines.push(fence === null ? line.replace(/(`+)[\s\S]*?\1/g, '') : '');
  }
  return lines;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2, … */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0];
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*~]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link (and #anchor) of one file that leads nowhere, as "file:line: target (why)". */
export function brokenLinks(file: string, markdown: string, readFile: (path: string) => string | null): string[] {
  const problems: string[] = [];
  proseOf(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …: not this repository's
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const where = `${file}:${index + 1}: ${target}`;
      const targetPath = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
      if (relative(root, resolve(root, targetPath)).startsWith('..')) {
        problems.push(`${where} (leaves the repository)`);
        continue;
      }
      const text = readFile(targetPath);
      if (text === null) {
        problems.push(`${where} (no such file)`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && targetPath.endsWith('.md')) {
        if (!headingAnchors(text).has(decodeURIComponent(anchor).toLowerCase())) {
          problems.push(`${where} (no such heading in ${targetPath})`);
        }
      }
    }
  });
  return problems;
}

/** Reads a path of this repository: its text for a file, '' for a folder, null when absent. */
function readFromRepository(path: string): string | null {
  const full = join(root, path);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

describe('documentation', () => {
  test('README.md is a door: at most 250 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move the detail into docs/`);
  });

  test('every relative link in README.md and docs/ leads to a file, and every #anchor to a heading', () => {
    const files = documentationFiles();
    assert.ok(files.length > 5, `expected README.md and the docs/ pages, found ${files.join(', ')}`);
    const problems = files.flatMap((file) =>
      brokenLinks(file, readFileSync(join(root, file), 'utf8'), readFromRepository),
    );
    assert.deepEqual(problems, [], `broken links:\n${problems.join('\n')}`);
  });

  test('docs/architecture.md lists every layer rule that lint enforces', () => {
    const rules = [...readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8').matchAll(/name: '([a-z-]+)'/g)].map(
      (m) => m[1],
    );
    assert.ok(rules.length > 10, 'the rules were read');
    const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    assert.deepEqual(
      rules.filter((rule) => !architecture.includes(`| \`${rule}\` |`)),
      [],
      'rules missing from the table of docs/architecture.md',
    );
  });

  test('the checker itself catches a missing file, a missing heading and ignores code', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# A\n\n## The `lyceum` client — bench:cli\n\n## Twice\n\n## Twice\n',
    };
    const read = (path: string) => pages[path] ?? null;
    const ok = [
      '[a](a.md)',
      '[a](a.md#the-lyceum-client--benchcli)',
      '[twice](a.md#twice-1)',
      '[web](https://example.org/missing.md)',
      '`[code](missing.md)`',
      '```\n[fenced](missing.md)\n```',
    ].join('\n');
    assert.deepEqual(brokenLinks('docs/b.md', ok, read), []);
    assert.deepEqual(brokenLinks('docs/b.md', '[gone](gone.md) [nope](a.md#nope)', read), [
      'docs/b.md:1: gone.md (no such file)',
      'docs/b.md:1: a.md#nope (no such heading in docs/a.md)',
    ]);
  });
});
