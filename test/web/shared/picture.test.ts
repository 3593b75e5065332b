import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ImageFacts, picture } from '../../../src/web/shared/picture.ts';

const at = (name: string) => `https://school.example/media/ast_1/${name}`;
const facts: ImageFacts = {
  width: 1600,
  height: 1200,
  placeholder: 'data:image/webp;base64,UklGRg==',
  formats: [
    { type: 'image/avif', sources: [320, 640, 1280].map((width) => ({ url: at(`${width}.avif`), width })) },
    { type: 'image/webp', sources: [320, 640, 1280].map((width) => ({ url: at(`${width}.webp`), width })) },
    { type: 'image/jpeg', sources: [320, 640, 1280].map((width) => ({ url: at(`${width}.jpg`), width })) },
  ],
};

test('a picture with variants: AVIF, then WebP sources, then the JPEG <img>, each with its widths narrowest first', () => {
  const out = picture({ src: at(''), alt: 'A kiln', sizes: '(min-width: 50rem) 20rem, 100vw', facts }).value;
  const avif = out.indexOf('type="image/avif"');
  const webp = out.indexOf('type="image/webp"');
  const img = out.indexOf('<img src="https://school.example/media/ast_1/1280.jpg"');
  assert.ok(avif > 0 && webp > avif && img > webp, out);
  assert.match(
    out,
    /<source type="image\/avif" srcset="\S+320\.avif 320w, \S+640\.avif 640w, \S+1280\.avif 1280w" sizes="\(min-width: 50rem\) 20rem, 100vw">/,
  );
  assert.match(out, /srcset="\S+320\.jpg 320w, \S+640\.jpg 640w, \S+1280\.jpg 1280w"/);
  assert.match(out, / width="1600" height="1200" loading="lazy" decoding="async"><\/picture><\/span>$/);
  assert.match(
    out,
    /^<span class="pic"><img class="pic-ph" src="data:image\/webp;base64,UklGRg==" alt="" width="1600" height="1200" aria-hidden="true"><picture>/,
  );
  assert.equal(out.match(/<img /g)?.length, 2, 'the placeholder and the picture');
});

test('a cropped box keeps width and height in its proportions; the main picture loads first', () => {
  const out = picture({
    src: '',
    alt: '',
    sizes: '100vw',
    facts,
    ratio: [16, 9],
    className: 'hero',
    priority: true,
  }).value;
  assert.match(out, /^<span class="pic pic-16x9 hero">/);
  assert.match(out, /alt="" width="1600" height="900" loading="eager" fetchpriority="high" decoding="async">/);
});

test('alt text, classes and addresses are escaped', () => {
  const out = picture({
    src: 'https://elsewhere.example/a.png?x=1&y="2"',
    alt: 'Tom & Jerry "<script>"',
    sizes: '100vw',
    className: 'x" onload="alert(1)',
  }).value;
  assert.match(out, /alt="Tom &amp; Jerry &quot;&lt;script&gt;&quot;"/);
  assert.match(out, /src="https:\/\/elsewhere\.example\/a\.png\?x=1&amp;y=&quot;2&quot;"/);
  assert.match(out, /class="pic x&quot; onload=&quot;alert\(1\)"/);
  assert.doesNotMatch(out, /<picture>|srcset/, 'a picture elsewhere is a plain <img>');
  assert.match(out, /width="1280" height="720"/, 'a nominal 16:9 box, so nothing moves while it loads');
});

test('an image without variants (a generated cover) is shown as it is, at its own size, without a placeholder', () => {
  const out = picture({
    src: '/covers/crs_1-abc.svg',
    alt: '',
    sizes: '100vw',
    facts: { width: 1280, height: 720, placeholder: null, formats: [] },
  }).value;
  assert.equal(
    out,
    '<span class="pic"><img src="/covers/crs_1-abc.svg" alt="" width="1280" height="720" loading="lazy" decoding="async"></span>',
  );
});
