import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestedRange } from '../../src/http/byte-range.ts';
import { mediaUrls } from '../../src/storage/media-urls.ts';

test('Range headers: one range of each form, the unsatisfiable, and what is ignored', () => {
  assert.deepEqual(requestedRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(requestedRange('bytes=5-', 100), { start: 5, end: 99 });
  assert.deepEqual(requestedRange('bytes=-5', 100), { start: 95, end: 99 });
  assert.deepEqual(requestedRange('bytes=-500', 100), { start: 0, end: 99 }, 'a suffix longer than the file');
  assert.deepEqual(requestedRange('bytes=90-500', 100), { start: 90, end: 99 }, 'an end past the file');
  assert.equal(requestedRange('bytes=100-', 100), 'unsatisfiable');
  assert.equal(requestedRange('bytes=-0', 100), 'unsatisfiable');
  for (const ignored of [undefined, '', 'bytes=9-5', 'bytes=-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b']) {
    assert.equal(requestedRange(ignored, 100), undefined, String(ignored));
  }
});

test('signed media URLs: valid until they expire, and a changed id, expiry or signature is forged', () => {
  const urls = mediaUrls({ baseUrl: 'https://school.example', key: 'k'.repeat(43), ttlSeconds: 60 });
  const now = new Date('2030-01-01T00:00:00Z');
  const signed = urls.signedUrl('ast_a', now);
  assert.equal(signed.expiresAt, '2030-01-01T00:01:00.000Z');
  const url = new URL(signed.url);
  const expires = url.searchParams.get('expires') ?? '';
  const signature = url.searchParams.get('signature') ?? '';
  assert.equal(urls.check('ast_a', expires, signature, now), 'valid');
  assert.equal(urls.check('ast_a', expires, signature, new Date(now.getTime() + 59_999)), 'valid');
  assert.equal(urls.check('ast_a', expires, signature, new Date(now.getTime() + 60_000)), 'expired');
  assert.equal(urls.check('ast_b', expires, signature, now), 'forged');
  assert.equal(urls.check('ast_a', String(Number(expires) + 1), signature, now), 'forged');
  const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
  assert.equal(urls.check('ast_a', expires, flipped, now), 'forged');
  assert.equal(urls.check('ast_a', '1e12', signature, now), 'forged');
  const other = mediaUrls({ baseUrl: 'https://school.example', key: 'x'.repeat(43), ttlSeconds: 60 });
  assert.equal(other.check('ast_a', expires, signature, now), 'forged', 'another school key');
  assert.equal(urls.publicUrl('ast_a'), 'https://school.example/media/ast_a');
});

test("an upload's public address names its asset; any other address names none", () => {
  const urls = mediaUrls({ baseUrl: 'https://school.example', key: 'k'.repeat(43), ttlSeconds: 60 });
  const id = 'ast_01k0000000000000000000abcd';
  assert.equal(urls.assetOf(urls.publicUrl(id)), id);
  assert.equal(urls.assetOf(`/media/${id}`), id);
  for (const other of [
    `https://elsewhere.example/media/${id}`,
    `https://school.example/media/${id}/640-0123456789ab.avif`,
    `https://school.example/media/${id}?expires=1&signature=x`,
    'https://school.example/media/ast_short',
    `https://schoolXexample/media/${id}`,
  ]) {
    assert.equal(urls.assetOf(other), undefined, other);
  }
});
