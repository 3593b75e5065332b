import type { FastifyInstance } from 'fastify';
import type { Lesson } from '../../areas/curriculum/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { fileAsset, ownAsset, serveAssets } from './own-assets.ts';

const script = 'text/javascript; charset=utf-8';
const pdfjsFile = (file: string) => new URL(import.meta.resolve(`pdfjs-dist/build/${file}`));

/** The player's and the PDF viewer's files, all served by the school (pdf.js from its package, not a CDN). */
const ASSETS = {
  player: ownAsset('player.js', script),
  style: ownAsset('player.css', 'text/css; charset=utf-8'),
  pdfViewer: ownAsset('pdf-viewer.js', script),
  pdfjs: fileAsset(pdfjsFile('pdf.min.mjs'), 'pdfjs/pdf.min.mjs', script),
  pdfWorker: fileAsset(pdfjsFile('pdf.worker.min.mjs'), 'pdfjs/pdf.worker.min.mjs', script),
};

export function registerPlayerAssets(app: FastifyInstance) {
  serveAssets(app, Object.values(ASSETS));
}

/** Where the student stopped, and where the player saves the place as they go (enrolled students only). */
export type Resume = { saveUrl: string; csrf: string; positionS: number; completed: boolean };

const keys = html`<details class="player-keys" hidden><summary>Keyboard shortcuts</summary><dl>
<dt>Space or K</dt><dd>Play or pause</dd><dt>J / L</dt><dd>Back or ahead 10 seconds</dd>
<dt>← / →</dt><dd>Back or ahead 5 seconds</dd><dt>M</dt><dd>Mute</dd><dt>C</dt><dd>Captions on or off</dd>
<dt>F</dt><dd>Full screen</dd><dt>&lt; / &gt;</dt><dd>Slower or faster</dd></dl></details>`;

/**
 * A video or audio lesson's player: the native element with its own controls (what stays without a script), its
 * WebVTT captions (the first one on), its poster, and player.js, which gives it its bar, keys and the place to resume.
 */
function played(lesson: Lesson, url: string, resume: Resume | undefined): SafeHtml {
  const isVideo = lesson.type === 'video';
  const tracks = lesson.captions.map(
    (c, i) =>
      html`<track kind="captions" srclang="${c.language}" label="${c.label}" src="${c.url}"${i === 0 ? html` default` : ''}>`,
  );
  const fallback = html`<a href="${url}">Download the ${isVideo ? 'video' : 'recording'}</a>`;
  const media = isVideo
    ? html`<video controls preload="metadata" playsinline src="${url}"${
        lesson.poster_url ? html` poster="${lesson.poster_url}"` : ''
      }>${tracks}${fallback}</video>`
    : html`${
        lesson.poster_url ? html`<img class="player-art" src="${lesson.poster_url}" alt="">` : ''
      }<audio controls preload="metadata" src="${url}">${tracks}${fallback}</audio>`;
  const saving = resume
    ? html` data-save="${resume.saveUrl}" data-csrf="${resume.csrf}" data-resume="${resume.positionS}" data-completed="${String(resume.completed)}"`
    : '';
  return html`<link rel="stylesheet" href="${ASSETS.style.href}">
<figure class="player-media ${isVideo ? 'is-video' : 'is-audio'}" data-player${saving}>${media}${keys}</figure>
<script type="module" src="${ASSETS.player.href}"></script>`;
}

/** A PDF lesson: read in the page (pdf-viewer.js with pdf.js), with links to open and download it either way. */
function pdf(lesson: Lesson, url: string): SafeHtml {
  return html`<link rel="stylesheet" href="${ASSETS.style.href}">
<section class="pdf-viewer" aria-label="PDF: ${lesson.title}" data-pdf="${url}" data-title="${lesson.title}" data-pdfjs="${
    ASSETS.pdfjs.href
  }" data-worker="${ASSETS.pdfWorker.href}">
<p class="pdf-links"><a class="button" href="${url}" target="_blank" rel="noopener">Open the PDF</a> <a class="button secondary" href="${url}" download>Download the PDF</a></p>
</section>
<script type="module" src="${ASSETS.pdfViewer.href}"></script>`;
}

/** The media of a video, audio or PDF lesson with a file; undefined for any other lesson (or one without a file). */
export function lessonMedia(lesson: Lesson, resume?: Resume): SafeHtml | undefined {
  const url = lesson.asset_url;
  if (!url) return undefined;
  if (lesson.type === 'video' || lesson.type === 'audio') return played(lesson, url, resume);
  if (lesson.type === 'pdf') return pdf(lesson, url);
  return undefined;
}
