/**
 * The CSS of picture.ts's markup, part of site.css: the placeholder lies under the picture and fills its box, blurred,
 * until the picture covers it; each image keeps the proportions of its width and height attributes, so the page does
 * not move while pictures load. A page sizes a picture by the wrapper's class (width, max-width, border-radius).
 *
 * A generated cover (generated-cover.ts) is a 16:9 box in one of three tones of the theme: the button's colour, the
 * badge's, or a dark ink of the primary colour; each with its label colour for the title, which the theme keeps at
 * 4.5:1 or more. The title is sized by the box's width (container units), so it looks the same on a card and a page.
 */
export const PICTURE_CSS = `
.pic { display: block; position: relative; overflow: hidden; }
.pic > picture { display: block; width: 100%; }
.pic img { display: block; width: 100%; height: auto; object-fit: cover; position: relative; }
.pic-16x9 img { aspect-ratio: 16 / 9; }
.pic-4x3 img { aspect-ratio: 4 / 3; }
.pic-3x2 img { aspect-ratio: 3 / 2; }
.pic-1x1 img { aspect-ratio: 1; }
.post-cover { max-width: 20rem; border-radius: var(--radius, .5rem); margin-bottom: var(--space-xs, .75rem); }
.post-hero { border-radius: var(--radius, .5rem); margin-bottom: var(--space-m, 1.5rem); }
.pic > .pic-ph { position: absolute; inset: 0; height: 100%; filter: blur(.6rem); transform: scale(1.15); }
/* [aria-hidden] outweighs a page's .card .cover or .hero, which are written for images. */
.gen-cover[aria-hidden] { display: block; position: relative; aspect-ratio: 16 / 9; width: 100%; overflow: hidden; container-type: inline-size; color: var(--gc-ink); background: radial-gradient(circle at 88% 8%, color-mix(in srgb, var(--gc-pop) 30%, transparent), transparent 55%) var(--gc-fill); }
.gen-cover.tone-primary { --gc-fill: var(--button, var(--primary)); --gc-ink: var(--on-button, #fff); --gc-pop: var(--accent); }
.gen-cover.tone-accent { --gc-fill: var(--badge, var(--accent)); --gc-ink: var(--on-badge, #fff); --gc-pop: var(--primary); }
.gen-cover.tone-ink { --gc-fill: color-mix(in srgb, var(--primary) 28%, #0c0e16); --gc-ink: #fff; --gc-pop: var(--accent); }
.gen-cover svg { position: absolute; inset: 0; width: 100%; height: 100%; max-width: none; }
.gen-cover .pop { fill: var(--gc-pop); }
.gen-cover .ink { fill: var(--gc-ink); }
.gen-cover .soft { opacity: .14; }
.gen-cover .dots { opacity: .3; }
.gen-cover .fill { fill: var(--gc-fill); }
.gen-cover .line { fill: none; stroke: var(--gc-ink); stroke-opacity: .3; stroke-width: 1.2; }
.gen-title { position: absolute; left: 6.5cqi; bottom: 6cqi; width: 58cqi; font-family: var(--heading-font); font-weight: var(--heading-weight, 700); letter-spacing: var(--heading-tracking, 0); font-size: 6.8cqi; line-height: 1.1; text-wrap: balance; overflow-wrap: break-word; }
.gen-title .gen-rule { display: block; width: 9cqi; height: 1.1cqi; margin-bottom: 2.6cqi; background: var(--gc-pop); border-radius: 1cqi; }
.gen-cover.top .gen-title { top: 6cqi; bottom: auto; }
.gen-cover.short .gen-title { font-size: 8.2cqi; }
.gen-cover.long .gen-title { font-size: 5.4cqi; }
`;
