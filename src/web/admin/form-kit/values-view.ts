import { html, type SafeHtml } from '../../../text/html.ts';
import { majorUnits } from './form-values.ts';

/** Where an id links in the admin, if anywhere (a course id to its course). */
export type IdLinker = (id: string) => string | undefined;

const isMoney = (value: unknown): value is { amount: number; currency: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { amount?: unknown }).amount === 'number' &&
  typeof (value as { currency?: unknown }).currency === 'string';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/;
const ID = /^[a-z]{2,4}_[0-9A-Za-z]{20,}$/;

/** One value of an API object as the admin shows it: money in major units, times in UTC, ids as links. */
export function valueHtml(value: unknown, link: IdLinker): SafeHtml | string {
  if (value === null || value === undefined || value === '') return html`<span class="meta">—</span>`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (isMoney(value)) return `${majorUnits(value.amount, value.currency)} ${value.currency}`;
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
    if (ID.test(value)) {
      const href = link(value);
      return href ? html`<a href="${href}"><code>${value}</code></a>` : html`<code>${value}</code>`;
    }
    return value.length > 160 ? `${value.slice(0, 157)}…` : value;
  }
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string' || typeof item === 'number'))
      return html`${value.map((item, i) => html`${i ? ', ' : ''}${valueHtml(item, link)}`)}`;
    return `${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  if (typeof value === 'object') {
    const person = value as { name?: unknown; email?: unknown };
    if (typeof person.email === 'string')
      return typeof person.name === 'string' && person.name ? `${person.name} (${person.email})` : person.email;
    const text = JSON.stringify(value);
    return text.length > 160 ? `${text.slice(0, 157)}…` : text;
  }
  return String(value);
}

/** The name of a row: the first of the resource's naming fields it has, else its id. */
export function rowName(row: Record<string, unknown>, fields: readonly string[]): string {
  for (const field of fields) {
    const value = row[field];
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string' && value !== '') return value.length > 80 ? `${value.slice(0, 77)}…` : value;
  }
  return String(row.id ?? '');
}
