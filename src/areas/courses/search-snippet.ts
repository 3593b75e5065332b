import { escapeHtml } from '../../text/html.ts';
import { MARK_END, MARK_START, type Passages } from './search-store.ts';

/** Which passage tells best why a course was found: the texts by their weight, the title last (it is shown anyway). */
const PREFERENCE = ['subtitle', 'lecturers', 'description', 'lessons', 'title'] as const;

/** Markdown a passage of a description may carry, which a reader should not see: links, emphasis, code, headings. */
const MARKDOWN = /!?\[([^\]\uE000\uE001]*)\]\([^)\s]*\)|[*`~]+|^\s*(?:#{1,6}|>)\s+/gm;

/**
 * The snippet of a found course: the passage (see search-store.ts `passages`) of its subtitle, lecturers,
 * description or lesson titles where the words are — the title's, when they are only there — as HTML: the text
 * escaped, each found word in <mark>. Empty when no passage marks a word.
 */
export function snippetHtml(passages: Passages): string {
  const passage = PREFERENCE.map((text) => passages[text]).find((p) => p.includes(MARK_START));
  if (!passage) return '';
  const plain = passage.replace(MARKDOWN, (_, link: string | undefined) => link ?? ' ').replace(/\s+/g, ' ');
  return escapeHtml(plain.trim())
    .replace(new RegExp(`${MARK_START}([^${MARK_START}${MARK_END}]*)${MARK_END}`, 'g'), '<mark>$1</mark>')
    .replace(new RegExp(`[${MARK_START}${MARK_END}]`, 'g'), '');
}
