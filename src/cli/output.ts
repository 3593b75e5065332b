import Table from 'cli-table3';

export type Out = { write(text: string): void; columns?: number };

const MAX_CELL = 40;

/** A value as one short line for a person: times to the minute, nothing for null, objects as compact JSON. */
export function cellText(name: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && name.endsWith('_at') && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value))
    return `${value.slice(0, 10)} ${value.slice(11, 16)}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const cut = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

const plain = { style: { head: [] as string[], border: [] as string[], compact: true } };

/**
 * A list as a table that fits the terminal: the columns in the order given (naming ones first), each as wide as its
 * widest value up to 40 characters, as many as fit in `width`.
 */
export function listTable(items: Record<string, unknown>[], columns: string[], width: number): string {
  const known = columns.length ? columns : Object.keys(items[0] ?? {});
  const widths = known.map((column) =>
    Math.min(MAX_CELL, Math.max(column.length, ...items.map((item) => cellText(column, item[column]).length))),
  );
  const shown: number[] = [];
  let used = 1;
  for (const [index, w] of widths.entries()) {
    if (shown.length && used + w + 3 > width) break;
    shown.push(index);
    used += w + 3;
  }
  const table = new Table({ ...plain, head: shown.map((i) => known[i] ?? '') });
  for (const item of items)
    table.push(shown.map((i) => cut(cellText(known[i] ?? '', item[known[i] ?? '']), widths[i] ?? MAX_CELL)));
  return table.toString();
}

/** One object as field/value rows; long values are cut to the terminal's width. */
export function objectTable(object: Record<string, unknown>, width: number): string {
  const names = Object.keys(object);
  const nameWidth = Math.max(...names.map((n) => n.length), 5);
  const valueWidth = Math.max(10, width - nameWidth - 7);
  const table = new Table(plain);
  for (const name of names) table.push([name, cut(cellText(name, object[name]), valueWidth)]);
  return table.toString();
}
