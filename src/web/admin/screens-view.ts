import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import type { AdminResource } from './catalog.ts';
import { labelOf } from './form-kit/schema-fields.ts';
import { type IdLinker, rowName, valueHtml } from './form-kit/values-view.ts';

type Row = Record<string, unknown>;

/** A table of API objects: the naming column links to the object, the others are the resource's columns. */
export function rowsTable(opts: {
  rows: Row[];
  title: readonly string[];
  columns: readonly string[];
  href: (row: Row) => string | undefined;
  link: IdLinker;
  caption?: string;
}): SafeHtml {
  if (opts.rows.length === 0) return html`<p class="meta">Nothing here yet.</p>`;
  const columns = opts.columns.filter((c) => opts.rows.some((row) => c in row));
  return html`<div class="table-wrap"><table>${opts.caption ? html`<caption>${opts.caption}</caption>` : ''}
<thead><tr><th scope="col">${labelOf(opts.title[0] ?? 'id')}</th>${columns.map((c) => html`<th scope="col">${labelOf(c)}</th>`)}</tr></thead>
<tbody>${opts.rows.map((row) => {
    const href = opts.href(row);
    const name = rowName(row, opts.title);
    return html`<tr><th scope="row">${href ? html`<a href="${href}">${name}</a>` : name}</th>${columns.map(
      (c) => html`<td>${valueHtml(row[c], opts.link)}</td>`,
    )}</tr>`;
  })}</tbody></table></div>`;
}

/** Every field of one object, long text shortened; nested lists are counted, not dumped. */
export function objectFacts(object: Row, link: IdLinker): SafeHtml {
  return html`<dl class="facts">${Object.entries(object).map(
    ([key, value]) => html`<div><dt>${labelOf(key)}</dt><dd>${valueHtml(value, link)}</dd></div>`,
  )}</dl>`;
}

export type ActionButton = {
  name: string;
  label: string;
  /** Runs at once with a POST (no fields to fill in); otherwise a link to the operation's form. */
  direct: boolean;
  href: string;
  danger: boolean;
};

/** The object's actions: plain POST buttons when nothing needs filling in, links to a form otherwise. */
export function actionBar(actions: ActionButton[], csrf: string, returnTo: string): SafeHtml {
  if (actions.length === 0) return html``;
  return html`<ul class="actions">${actions.map((action) =>
    action.direct
      ? html`<li><form method="post" action="${action.href}">${csrfField(csrf)}<input type="hidden" name="return_to" value="${returnTo}"><button type="submit"${
          action.danger ? html` class="danger"` : ''
        }>${action.label}</button></form></li>`
      : html`<li><a class="button secondary" href="${action.href}">${action.label}</a></li>`,
  )}</ul>`;
}

export function listHeader(resource: AdminResource, canCreate: boolean): SafeHtml {
  const links = [
    ...(canCreate
      ? [{ href: `/admin/${resource.key}/new`, label: resource.createLabel ?? `New ${resource.singular}` }]
      : []),
    ...(resource.adds ?? []),
  ];
  return links.length
    ? html`<ul class="actions">${links.map((l, i) => html`<li><a class="button${i ? ' secondary' : ''}" href="${l.href}">${l.label}</a></li>`)}</ul>`
    : html``;
}
