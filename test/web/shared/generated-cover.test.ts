import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverDesign, coverTitle, generatedCover } from '../../../src/web/shared/generated-cover.ts';

const ids = Array.from({ length: 60 }, (_, i) => `crs_01k${String(i).padStart(4, '0')}000000000000000abc`);

test('a course keeps its cover; courses differ in tone, composition and placement', () => {
  const a = { id: ids[0] as string, title: 'Botanical Illustration' };
  assert.equal(generatedCover(a).value, generatedCover({ ...a }).value);
  const designs = ids.map((id) => coverDesign({ id }));
  assert.equal(new Set(designs.map((d) => d.shapes)).size, ids.length, 'no two courses share their shapes');
  assert.deepEqual(new Set(designs.map((d) => d.tone)), new Set(['primary', 'accent', 'ink']));
  assert.ok(new Set(designs.map((d) => d.composition)).size >= 7, 'most compositions are in use');
  assert.deepEqual(new Set(designs.map((d) => d.flipped)), new Set([true, false]));
});

test('the cover is decoration beside the real title: hidden from assistive tech, its title escaped', () => {
  const out = generatedCover({ id: ids[1] as string, title: 'Clay & <Glaze> "101"' }, 'cover').value;
  assert.match(
    out,
    /^<span class="gen-cover tone-(primary|accent|ink)( short| long)?( top)? cover" aria-hidden="true"><svg /,
  );
  assert.match(
    out,
    /<span class="gen-title"><span class="gen-rule"><\/span>Clay &amp; &lt;Glaze&gt; &quot;101&quot;<\/span>/,
  );
  assert.doesNotMatch(out, /style=|<script/);
});

test('a long title is cut at a word, with an ellipsis', () => {
  assert.equal(coverTitle('Short'), 'Short');
  const long = 'The Complete Guide to Natural Dyes in Wool, Silk and Linen Across Ten Centuries of European Craft';
  const cut = coverTitle(long);
  assert.ok(cut.length <= 81, cut);
  assert.equal(cut, 'The Complete Guide to Natural Dyes in Wool, Silk and Linen Across Ten Centuries…');
});
