import type { WebClient } from './web-client.ts';

/**
 * Every admin screen of a school with data, found as a person would: the menu's lists, the first object of each,
 * its edit form, each create form, and every operation screen its object page links to.
 */
export async function adminScreens(client: WebClient): Promise<string[]> {
  const home = await client.get('/admin');
  if (home.status !== 200) throw new Error(`/admin answered ${home.status}`);
  const menu = [...home.text.matchAll(/<nav aria-label="Admin"[\s\S]*?<\/nav>/g)][0]?.[0] ?? '';
  const lists = [...menu.matchAll(/href="(\/admin\/[^"?#]+)"/g)].map((m) => m[1] as string);
  const screens = new Set<string>(['/admin', ...lists]);
  for (const list of lists) {
    const page = await client.get(list);
    const key = list.split('/')[2];
    const links = [...page.text.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] as string).replace(/&amp;/g, '&'));
    const first = links.find((href) => new RegExp(`^/admin/${key}/[a-z]+_`).test(href));
    if (links.includes(`/admin/${key}/new`)) screens.add(`/admin/${key}/new`);
    // The list's other ways to add (a CSV import, a bulk form).
    for (const href of links)
      if (href.startsWith(`/admin/${key}/`) && !/[a-z]+_[0-9a-z]{26}/.test(href)) screens.add(href);
    for (const href of links) if (href.startsWith('/admin/operations/')) screens.add(href);
    if (!first) continue;
    screens.add(first);
    const object = await client.get(first);
    for (const href of [...object.text.matchAll(/href="(\/admin\/[^"]+)"/g)].map((m) =>
      (m[1] as string).replace(/&amp;/g, '&'),
    ))
      if ((href.startsWith(`${first}/`) && !/\.csv$/.test(href)) || href.startsWith('/admin/operations/'))
        screens.add(href);
  }
  return [...screens];
}
