import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { type Destination, LINK_LISTS, type LinkList, type LinkRow, MOST_LINKS, OTHER } from './menu-rows.ts';

export type RowProblem = { row: number; box: string; message: string };

/**
 * One list of links (the menu or the footer) as rows of a name and a destination picked by name (a course, a page, a
 * post, a list of the site) or an address typed in; rows are added, removed and moved with buttons of the form, and
 * only Save sends the list to the API. Works without a script.
 */
export function linkListView(opts: {
  list: LinkList;
  rows: LinkRow[];
  places: readonly Destination[];
  problems: RowProblem[];
  message?: string;
  unsaved: boolean;
  csrf: string;
}): SafeHtml {
  const { list, rows } = opts;
  const words = LINK_LISTS[list];
  const groups = [...new Set(opts.places.map((p) => p.group))];
  const hidden = (text: string) => html`<span class="visually-hidden">${text}</span>`;
  const button = (change: string, label: SafeHtml | string, kind = 'small secondary') =>
    html`<button type="submit" name="do" value="${change}" class="${kind}">${label}</button>`;
  const row = (r: LinkRow, i: number) => {
    const id = `${list}-${i}`;
    const problem = opts.problems.find((p) => p.row === i);
    const blank = !r.label && !r.goes && !r.url;
    const error = (box: string) =>
      problem?.box === box ? html`<span id="${id}-${box}-error" class="field-error">${problem.message}</span>` : '';
    const invalid = (box: string) =>
      problem?.box === box ? html` aria-invalid="true" aria-describedby="${id}-${box}-error"` : '';
    return html`<li class="link-row" id="${id}">
<div class="field"><label for="${id}-label">Name shown</label> ${error('label')}<input id="${id}-label" name="${i}.label" value="${r.label}" maxlength="40"${invalid('label')}></div>
<div class="field"><label for="${id}-goes">Goes to</label> ${error('url')}<select id="${id}-goes" name="${i}.goes" data-link-goes${invalid('url')}>
<option value="">Choose…</option>${groups.map(
      (group) =>
        html`<optgroup label="${group}">${opts.places
          .filter((p) => p.group === group)
          .map(
            (p) => html`<option value="${p.url}"${p.url === r.goes ? html` selected` : ''}>${p.name}</option>`,
          )}</optgroup>`,
    )}<option value="${OTHER}"${r.goes === OTHER ? html` selected` : ''}>Another address…</option></select></div>
<div class="field link-address"><label for="${id}-url">Or an address</label> <input id="${id}-url" name="${i}.url" value="${r.url}" placeholder="https://…" inputmode="url"></div>
<p class="builder-actions">${i > 0 ? button(`up:${i}`, html`Move up${hidden(` link ${i + 1}`)}`) : ''}${
      i < rows.length - 1 ? button(`down:${i}`, html`Move down${hidden(` link ${i + 1}`)}`) : ''
    }${blank ? '' : button(`remove:${i}`, html`Remove${hidden(` link ${i + 1}`)}`, 'small danger')}</p></li>`;
  };
  return html`<section class="link-list" id="${list}"><h2>${words.heading}</h2>${
    opts.message || opts.problems.length
      ? html`<div class="error" role="alert"><p>${opts.message ?? 'Not saved: please correct the links below.'}</p></div>`
      : ''
  }
<form method="post" action="/admin/appearance/menu" class="admin-form" novalidate>${csrfField(opts.csrf)}
<input type="hidden" name="list" value="${list}"><input type="hidden" name="count" value="${String(rows.length)}">
<button type="submit" name="do" value="save" class="visually-hidden" tabindex="-1">${words.save}</button>
${rows.length ? html`<ol class="link-rows">${rows.map(row)}</ol>` : html`<p class="meta">No links: the site shows its own.</p>`}
${rows.length < MOST_LINKS ? html`<p>${button('add', 'Add a link', 'secondary')}</p>` : ''}
<p class="submit">${button('save', words.save, '')}${
    opts.unsaved ? html` <span class="meta" role="status">Changes not saved yet.</span>` : ''
  }</p></form></section>`;
}
