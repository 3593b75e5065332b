import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import type { AdminResource } from './catalog.ts';
import { rowName, type ValueView, valueHtml } from './form-kit/values-view.ts';
import { fieldLabel, isHiddenField, valueWords } from './vocabulary/words.ts';

type Row = Record<string, unknown>;

/**
 * A table of API objects: the naming column links to the object, the others are the resource's columns, headed in
 * the vocabulary's words. On a phone each row stands as a card (each cell names its column: data-label).
 */
export function rowsTable(opts: {
  rows: Row[];
  title: readonly string[];
  columns: readonly string[];
  href: (row: Row) => string | undefined;
  view: ValueView;
  caption?: string;
}): SafeHtml {
  if (opts.rows.length === 0) return html`<p class="meta">Nothing here yet.</p>`;
  const where = [opts.view.resource];
  const naming = opts.title.find((f) => opts.rows.some((row) => row[f] !== undefined && row[f] !== null)) ?? 'name';
  const columns = opts.columns.filter(
    (c) => c !== naming && opts.rows.some((row) => c in row) && !isHiddenField(c, where),
  );
  return html`<div class="table-wrap"><table class="rows">${opts.caption ? html`<caption>${opts.caption}</caption>` : ''}
<thead><tr><th scope="col">${fieldLabel(naming, where)}</th>${columns.map((c) => html`<th scope="col">${fieldLabel(c, where)}</th>`)}</tr></thead>
<tbody>${opts.rows.map((row) => {
    const href = opts.href(row);
    const name = nameOf(row, opts.title, opts.view);
    return html`<tr><th scope="row">${href ? html`<a href="${href}">${name}</a>` : name}</th>${columns.map(
      (c) => html`<td data-label="${fieldLabel(c, where)}">${valueHtml(row[c], opts.view, c)}</td>`,
    )}</tr>`;
  })}</tbody></table></div>`;
}

/** A row's name: its naming field, or the name of the object its naming id stands for. */
function nameOf(row: Row, title: readonly string[], view: ValueView): string {
  for (const field of title) {
    const value = row[field];
    if (typeof value === 'string' && view.names.has(value)) return view.names.get(value) as string;
    // A row named by a choice (a payment by its kind) reads in words; a title or a name stays as written.
    const words = typeof value === 'string' && field === 'kind' ? valueWords(value, field, view.resource) : undefined;
    if (words) return words;
  }
  return rowName(row, title);
}

/** Every field of one object a person reads, in words; machinery (ids, checksums) is left out. */
export function objectFacts(object: Row, view: ValueView): SafeHtml {
  const where = [view.resource];
  return html`<dl class="facts">${Object.entries(object)
    .filter(([key]) => !isHiddenField(key, where))
    .map(
      ([key, value]) => html`<div><dt>${fieldLabel(key, where)}</dt><dd>${valueHtml(value, view, key)}</dd></div>`,
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
