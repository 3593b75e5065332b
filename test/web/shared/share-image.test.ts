import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  croppedShareImage,
  drawnShareImage,
  type ShareSubject,
  shareVersion,
} from '../../../src/web/shared/share-image.ts';
import { imageSize, photo } from '../../support/images.ts';

const subject: ShareSubject = {
  id: 'crs_01k00000000000000000000abc',
  title: 'Botanical Illustration',
  schoolName: 'Atelier North',
  colours: { primary: '#1d4ed8', accent: '#c2410c' },
  headingFont: 'Fraunces',
};

test("a course's drawn share image is a 1200 × 630 PNG of its own design, or a JPEG where a cover was meant", async () => {
  const png = await drawnShareImage(subject);
  assert.deepEqual(await imageSize(png), { format: 'png', width: 1200, height: 630 });
  const other = await drawnShareImage({ ...subject, id: 'crs_01k00000000000000000000xyz' });
  assert.notDeepEqual(other, png, "another course's design");
  const jpeg = await drawnShareImage(subject, 'jpeg');
  assert.deepEqual(await imageSize(jpeg), { format: 'jpeg', width: 1200, height: 630 });
});

test('an uploaded cover is cropped to 1200 × 630, whatever its shape', async () => {
  for (const [width, height] of [
    [1600, 1000],
    [600, 900],
  ] as const) {
    const cropped = await croppedShareImage(await photo(width, height));
    assert.deepEqual(await imageSize(cropped), { format: 'jpeg', width: 1200, height: 630 });
  }
});

test('the version names everything the image is drawn from', () => {
  const version = shareVersion(subject);
  assert.match(version, /^[0-9a-f]{16}$/);
  assert.equal(shareVersion({ ...subject }), version);
  for (const change of [
    { title: 'Botanical Illustration II' },
    { schoolName: 'Atelier South' },
    { colours: { primary: '#000000', accent: '#c2410c' } },
    { headingFont: 'Inter' },
    { coverSha256: 'ast_01k00000000000000000000abc' },
  ]) {
    assert.notEqual(shareVersion({ ...subject, ...change }), version, JSON.stringify(change));
  }
});
