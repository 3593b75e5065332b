import type { Page } from 'playwright-core';
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

/** A quiz question as a person builds it: what is asked, the choices in order and the places of the right ones. */
export type BuiltQuestion = { prompt: string; choices: string[]; right: number[] };

/** Builds questions in the admin's quiz builder as a person would: a question, its choices, its right answers. */
export async function buildQuiz(page: Page, questions: readonly BuiltQuestion[]) {
  for (const [i, q] of questions.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Add a question' }).click();
    await page.locator(`#q${i}-prompt`).fill(q.prompt);
    for (const [j, choice] of q.choices.entries()) {
      if (j >= 2) await page.getByRole('button', { name: `Add a choice to question ${i + 1}` }).click();
      await page.locator(`#q${i}-c${j}`).fill(choice);
    }
    for (const j of q.right) await page.locator(`#q${i}-r${j}`).check();
  }
}
