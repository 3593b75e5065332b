import { html, type SafeHtml } from '../../../text/html.ts';
import { fieldLabel, valueWords } from '../vocabulary/words.ts';
import { moneyWords } from './money.ts';
import { type SchoolClock, whenInWords } from './school-time.ts';

/** Where an id links in the admin, if anywhere (a course id to its course). */
export type IdLinker = (id: string) => string | undefined;

/**
 * What a page needs to show values as a person reads them: where ids link and the names they stand for, the
 * school's clock for times, and which object the values belong to (for the words of its states).
 */
export type ValueView = {
  link: IdLinker;
  names: ReadonlyMap<string, string>;
  clock: SchoolClock;
  resource?: string;
};

const isMoney = (value: unknown): value is { amount: number; currency: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { amount?: unknown }).amount === 'number' &&
  typeof (value as { currency?: unknown }).currency === 'string';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;
export const ID = /^[a-z]{2,4}_[0-9A-Za-z]{20,}$/;

/** An id as the name of what it stands for, linked to it when the admin has a page for it. */
function idHtml(id: string, view: ValueView): SafeHtml {
  const name = view.names.get(id) ?? 'Unnamed';
  const href = view.link(id);
  return href ? html`<a href="${href}">${name}</a>` : html`${name}`;
}

/**
 * One value of an API object as the admin shows it: money with its symbol, times in words in the school's zone, ids
 * as the names they stand for, states in words, places counted from 1.
 */
export function valueHtml(value: unknown, view: ValueView, field = ''): SafeHtml | string {
  if (value === null || value === undefined || value === '') return html`<span class="meta">—</span>`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' && field === 'position') return String(value + 1);
  if (typeof value === 'number' && field === 'byte_size') return bytesWords(value);
  if (isMoney(value)) return moneyWords(value.amount, value.currency, view.clock.locale);
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) return whenInWords(value, view.clock);
    if (ID.test(value)) return idHtml(value, view);
    // An address is a link; one made of an id (a file's /media/ast_… address) says what it opens instead.
    if (/^(https?:\/\/|\/)\S+$/.test(value))
      return html`<a href="${value}">${/[a-z]{2,4}_[0-9a-z]{26}/.test(value) ? 'Open' : value}</a>`;
    const words = field ? valueWords(value, field, view.resource) : undefined;
    if (words) return html`<span class="badge badge-${value.replace(/[^a-z_-]/g, '')}">${words}</span>`;
    return value.length > 160 ? `${value.slice(0, 157)}…` : value;
  }
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string' || typeof item === 'number'))
      return html`${value.map((item, i) => html`${i ? ', ' : ''}${valueHtml(item, view, field)}`)}`;
    return `${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  if (typeof value === 'object') {
    const person = value as { name?: unknown; email?: unknown; title?: unknown };
    if (typeof person.email === 'string')
      return typeof person.name === 'string' && person.name ? `${person.name} (${person.email})` : person.email;
    if (typeof person.name === 'string') return person.name;
    if (typeof person.title === 'string') return person.title;
    return html`${Object.entries(value).map(
      ([k, v], i) => html`${i ? '; ' : ''}${fieldLabel(k, [view.resource])}: ${valueHtml(v, view, k)}`,
    )}`;
  }
  return String(value);
}

const bytesWords = (n: number) =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} MB` : n >= 1000 ? `${Math.round(n / 1000)} kB` : `${n} bytes`;

/** The name of a row: the first of the resource's naming fields it has. */
export function rowName(row: Record<string, unknown>, fields: readonly string[]): string {
  for (const field of fields) {
    const value = row[field];
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string' && value !== '' && !ID.test(value))
      return value.length > 80 ? `${value.slice(0, 77)}…` : value;
  }
  return 'Unnamed';
}
