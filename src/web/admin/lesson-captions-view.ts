import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';

export type CaptionRow = { language: string; label: string; filename: string };

/** What the screen may say went wrong, by the box it concerns. */
export type CaptionProblems = { file?: string; language?: string; label?: string; poster?: string };

/**
 * A video or audio lesson's captions and poster: the caption files with their language and name (each removable), a
 * form adding one (a WebVTT file, its language, its name in the player's menu), and the poster. Plain multipart
 * forms: they work without a script.
 */
export function lessonCaptionsView(opts: {
  base: string;
  lessonPath: string;
  played: boolean;
  captions: CaptionRow[];
  posterUrl: string | null;
  problems: CaptionProblems;
  /** What was typed when it was refused. */
  typed: { language: string; label: string };
  csrf: string;
}): SafeHtml {
  const { problems } = opts;
  const back = html`<p><a href="${opts.lessonPath}">Back to the lesson</a></p>`;
  if (!opts.played)
    return html`${back}<p>Captions and a poster are for video and audio lessons. Change the lesson's type first.</p>`;
  const error = (box: keyof CaptionProblems) =>
    problems[box] ? html`<span id="captions-${box}-error" class="field-error">${problems[box]}</span>` : '';
  /** The box's state and what describes it: its hint, and its problem when it has one. */
  const invalid = (box: keyof CaptionProblems, hint?: string) => {
    const ids = [hint, problems[box] ? `captions-${box}-error` : undefined].filter(Boolean).join(' ');
    return html`${problems[box] ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;
  };
  const first = Object.values(problems).find(Boolean);
  const remove = (what: string, label: string) =>
    html`<form method="post" action="${opts.base}" class="inline">${csrfField(opts.csrf)}<input type="hidden" name="do" value="${what}"><button type="submit" class="danger">${label}</button></form>`;
  return html`${back}
${first ? html`<div class="error" role="alert"><p>${first}</p></div>` : ''}
<section><h2>Caption files</h2>${
    opts.captions.length
      ? html`<div class="table-wrap"><table><caption class="visually-hidden">Caption files of this lesson</caption>
<thead><tr><th scope="col">Name in the player</th><th scope="col">Language</th><th scope="col">File</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>${opts.captions.map(
          (c, i) =>
            html`<tr><td>${c.label}${i === 0 ? html` <span class="meta">(on at the start)</span>` : ''}</td><td>${c.language}</td><td>${c.filename}</td><td>${remove(
              `remove-${i}`,
              `Remove ${c.label}`,
            )}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="meta">None yet. Students who cannot hear the lesson, or are somewhere they cannot play sound, need them.</p>`
  }</section>
<section><h2>Add a caption file</h2>
<form method="post" action="${opts.base}/file" enctype="multipart/form-data" class="admin-form">${csrfField(opts.csrf)}
<div class="field"><label for="captions-file">WebVTT file (.vtt)</label> ${error('file')}
<input type="file" id="captions-file" name="file" accept=".vtt,text/vtt" required${invalid('file')}></div>
<div class="field"><label for="captions-language">Language</label> <span class="meta" id="captions-language-help">A language tag: en, de, pt-BR…</span> ${error('language')}
<input id="captions-language" name="language" required maxlength="35" value="${opts.typed.language}"${invalid('language', 'captions-language-help')}></div>
<div class="field"><label for="captions-label">Name in the player's menu</label> <span class="meta" id="captions-label-help">e.g. English, Deutsch</span> ${error('label')}
<input id="captions-label" name="label" required maxlength="60" value="${opts.typed.label}"${invalid('label', 'captions-label-help')}></div>
<p class="submit"><button type="submit">Upload and add</button></p></form></section>
<section><h2>Poster</h2><p class="meta">The picture shown before the lesson plays.</p>${
    opts.posterUrl ? html`<img src="${opts.posterUrl}" alt="The poster in use" class="image-preview">` : ''
  }
<form method="post" action="${opts.base}/poster" enctype="multipart/form-data" class="admin-form">${csrfField(opts.csrf)}
<div class="field"><label for="poster-file">Picture (PNG, JPEG, WebP or AVIF)</label> ${error('poster')}
<input type="file" id="poster-file" name="file" accept="image/png,image/jpeg,image/webp,image/avif" required${invalid('poster')}></div>
<p class="submit"><button type="submit">Upload and use it</button></p></form>
${opts.posterUrl ? remove('remove-poster', 'Remove the poster') : ''}</section>`;
}
