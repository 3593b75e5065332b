import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';

/** The image types the storage area takes as an image (its PURPOSES.image), for the file box's filter. */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/avif';

/**
 * One picture of an object (a course's cover, a lecturer's photo, the logo): the one in use, an upload, an address of
 * a picture elsewhere, and removal. The upload is a plain multipart form, so it works without a script; admin.js
 * sends the same file straight to storage with a progress bar instead.
 */
export function imageUploadView(opts: {
  base: string;
  backPath: string;
  backLabel: string;
  noun: string;
  current: string | null;
  /** The address typed when it was refused, else the address in use when it is not an upload. */
  address: string;
  problems: { file?: string; address?: string };
  csrf: string;
}): SafeHtml {
  const { problems } = opts;
  const error = (box: 'file' | 'address') =>
    problems[box] ? html`<span id="image-${box}-error" class="field-error">${problems[box]}</span>` : '';
  const invalid = (box: 'file' | 'address') =>
    problems[box] ? html` aria-invalid="true" aria-describedby="image-${box}-error"` : '';
  return html`<p><a href="${opts.backPath}">${opts.backLabel}</a></p>
${problems.file || problems.address ? html`<div class="error" role="alert"><p>${problems.file ?? problems.address}</p></div>` : ''}
<section class="image-now"><h2>The ${opts.noun} now</h2>${
    opts.current
      ? html`<img src="${opts.current}" alt="The ${opts.noun} in use" class="image-preview">`
      : html`<p class="meta">None yet.</p>`
  }</section>
<section><h2>Upload a new ${opts.noun}</h2>
<form method="post" action="${opts.base}/file" enctype="multipart/form-data" class="admin-form image-upload" data-image-upload data-start="${opts.base}">${csrfField(opts.csrf)}
<div class="field"><label for="image-file">Picture (PNG, JPEG, GIF, WebP or AVIF)</label> ${error('file')}
<input type="file" id="image-file" name="file" accept="${ACCEPT}" required${invalid('file')}></div>
<img alt="The picture chosen" class="image-preview" data-image-chosen hidden>
<progress max="100" value="0" hidden aria-label="Upload progress"></progress>
<p role="status" aria-live="polite" class="media-status"></p>
<p class="submit"><button type="submit">Upload and use it</button></p></form></section>
<section><h2>Or use a picture from another site</h2>
<form method="post" action="${opts.base}" class="admin-form">${csrfField(opts.csrf)}<input type="hidden" name="do" value="address">
<div class="field"><label for="image-address">Its address</label> ${error('address')}
<input type="url" id="image-address" name="address" value="${opts.address}" placeholder="https://…" inputmode="url"${invalid('address')}></div>
<p class="submit"><button type="submit" class="secondary">Use this address</button></p></form></section>
${
  opts.current
    ? html`<form method="post" action="${opts.base}">${csrfField(opts.csrf)}<input type="hidden" name="do" value="remove">
<p><button type="submit" class="danger">Remove the ${opts.noun}</button></p></form>`
    : ''
}`;
}
