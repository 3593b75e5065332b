import type { Page } from '../../areas/pages/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { markdownHtml } from '../shared/markdown.ts';

export const schoolPagePath = (slug: string) => `/p/${encodeURIComponent(slug)}`;

/** One of the school's pages (About, FAQ, Terms…): its live body; staff previewing a draft see the draft, marked. */
export function schoolPageView(page: Page): SafeHtml {
  if (page.published_body !== null && page.status === 'published') return html`${markdownHtml(page.published_body)}`;
  return html`<p class="warning">This page is a draft: only staff can see it.</p>${markdownHtml(page.draft_body ?? '')}`;
}
