import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { makeVariants, UnreadableImage, variantWidths } from '../../src/storage/image-variants.ts';
import { imageSize, photo, transparentPng } from '../support/images.ts';

test('the widths made: the listed ones below the image, its own when narrower than the largest, never wider', () => {
  assert.deepEqual(variantWidths(4000), [160, 320, 640, 960, 1280, 1920]);
  assert.deepEqual(variantWidths(1920), [160, 320, 640, 960, 1280, 1920]);
  assert.deepEqual(variantWidths(1600), [160, 320, 640, 960, 1280, 1600]);
  assert.deepEqual(
    variantWidths(1500),
    [160, 320, 640, 960, 1500],
    '1280 is too near 1500 to be worth a file of its own',
  );
  assert.deepEqual(variantWidths(1000), [160, 320, 640, 1000]);
  assert.deepEqual(variantWidths(300), [160, 300]);
  assert.deepEqual(variantWidths(150), [150]);
});

test('a photograph: AVIF, WebP and JPEG at each width, in its proportions, with a blurred placeholder', async () => {
  const made = await makeVariants(await photo(1600, 1000));
  assert.equal(made.width, 1600);
  assert.equal(made.height, 1000);
  assert.equal(made.transparent, false);
  assert.match(made.placeholder ?? '', /^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
  assert.ok((made.placeholder ?? '').length < 400, `a placeholder of ${made.placeholder?.length} characters`);
  const seen = await Promise.all(made.variants.map(async (v) => ({ ...v, shown: await imageSize(v.bytes) })));
  assert.deepEqual(
    seen.map((v) => `${v.format} ${v.width}x${v.height}`),
    [160, 320, 640, 960, 1280, 1600].flatMap((w) => ['avif', 'webp', 'jpeg'].map((f) => `${f} ${w}x${(w * 5) / 8}`)),
  );
  for (const v of seen) {
    assert.equal(v.shown.format, v.format === 'avif' ? 'heif' : v.format);
    assert.equal(v.shown.width, v.width);
    assert.equal(v.shown.height, v.height);
  }
  const jpeg1600 = seen.find((v) => v.format === 'jpeg' && v.width === 1600);
  const avif1600 = seen.find((v) => v.format === 'avif' && v.width === 1600);
  assert.ok(avif1600 && jpeg1600 && avif1600.bytes.length < jpeg1600.bytes.length, 'AVIF is the smaller');
});

test('a small image with transparency: one width, its own, in AVIF, WebP and PNG, and no placeholder', async () => {
  const made = await makeVariants(await transparentPng(150, 90));
  assert.equal(made.transparent, true);
  assert.equal(made.placeholder, null);
  assert.deepEqual(
    made.variants.map((v) => `${v.format} ${v.width}x${v.height}`),
    ['avif 150x90', 'webp 150x90', 'png 150x90'],
  );
});

test("a camera's rotation is applied, and the location it recorded is not in any variant", async () => {
  const sideways = await sharp(await photo(600, 400))
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'GPS 51.5N 0.1W' } } })
    .jpeg()
    .toBuffer();
  const made = await makeVariants(sideways);
  assert.deepEqual([made.width, made.height], [400, 600]);
  for (const v of made.variants) {
    const meta = await sharp(v.bytes).metadata();
    assert.equal(meta.exif, undefined);
    assert.equal(meta.height, Math.round((v.width * 3) / 2));
  }
});

test('bytes that only begin as an image are refused as unreadable', async () => {
  const broken = Buffer.concat([(await photo(300, 200)).subarray(0, 400), Buffer.alloc(400)]);
  await assert.rejects(makeVariants(broken), UnreadableImage);
});
