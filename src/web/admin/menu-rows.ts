import { type PostedForm, postedText } from './form-kit/form-values.ts';
import { swapped, without } from './form-kit/row-moves.ts';

/** The two lists of links the appearance holds, in the words a school owner reads. */
export const LINK_LISTS = {
  navigation: { heading: 'Menu at the top of every page', save: 'Save the menu', saved: 'The menu is saved.' },
  footer: {
    heading: 'Links at the foot of every page',
    save: 'Save the footer links',
    saved: 'The footer links are saved.',
  },
} as const;
export type LinkList = keyof typeof LINK_LISTS;

/** The API's limit of each list (AppearanceUpdate). */
export const MOST_LINKS = 20;

/** Where a link may go, offered by name (`name`, with a word on its state) and named by its `title` on the site: the site's lists and each course, page and post. */
export type Destination = { url: string; name: string; group: string; title?: string };

/** One row as its boxes hold it: a name, a picked destination (or "other") and an address typed by hand. */
export type LinkRow = { label: string; goes: string; url: string };

export const OTHER = 'other';

/** A stored link as a row: its address picked from the list when the list has it, else typed. */
export const rowOf = (link: { label: string; url: string }, places: readonly Destination[]): LinkRow =>
  places.some((p) => p.url === link.url)
    ? { label: link.label, goes: link.url, url: '' }
    : { label: link.label, goes: OTHER, url: link.url };

export function rowsFromForm(form: PostedForm): LinkRow[] {
  const count = Math.min(MOST_LINKS + 5, Math.max(0, Number.parseInt(postedText(form, 'count'), 10) || 0));
  return Array.from({ length: count }, (_, i) => ({
    label: postedText(form, `${i}.label`),
    goes: postedText(form, `${i}.goes`),
    url: postedText(form, `${i}.url`),
  }));
}

/** A change of the rows' shape (`do` of the button pressed); undefined for a save. */
export function reshapedRows(rows: LinkRow[], change: string): LinkRow[] | undefined {
  const [what, at = -1] = [change.split(':')[0], Number(change.split(':')[1])];
  switch (what) {
    case 'add':
      return [...rows, { label: '', goes: '', url: '' }];
    case 'remove':
      return without(rows, at);
    case 'up':
      return swapped(rows, at, at - 1);
    case 'down':
      return swapped(rows, at, at + 1);
    default:
      return undefined;
  }
}

/**
 * The links the API receives, and which row each came from (rows left empty are dropped). A picked destination wins
 * over a typed address; a link without a name takes its destination's.
 */
export function linksOf(rows: LinkRow[], places: readonly Destination[]) {
  const formIndex: number[] = [];
  const links = rows.flatMap((row, i) => {
    const picked = row.goes && row.goes !== OTHER ? row.goes : '';
    const url = picked || row.url.trim();
    const label = row.label.trim() || places.find((p) => p.url === picked)?.title || '';
    if (!url && !label) return [];
    formIndex.push(i);
    return [{ label, url }];
  });
  return { links, formIndex };
}

/** The API's refusal of a row, beside the row's box it is about. */
export function rowProblem(field: string, message: string, formIndex: number[]) {
  const match = /^\w+\.(\d+)\.(label|url)$/.exec(field);
  if (!match) return { row: -1, box: '', message };
  const row = formIndex[Number(match[1])] ?? -1;
  return match[2] === 'label'
    ? { row, box: 'label', message: 'Give the link a name of at most 40 characters.' }
    : {
        row,
        box: 'url',
        message: 'Choose where it goes, or type an address starting with / (on this site) or https://.',
      };
}
