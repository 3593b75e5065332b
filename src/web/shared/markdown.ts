import MarkdownIt from 'markdown-it';
import { SafeHtml } from '../../text/html.ts';

/**
 * The one Markdown renderer of the site: lesson, post and page bodies and event descriptions, and the admin's preview
 * of them. Raw HTML in the text is shown as text (html: false), so a body can never add a script or a form; links go
 * only to http(s), mailto and relative addresses (markdown-it's own check refuses javascript: and data: links);
 * single line breaks are kept, as the plain-text bodies written before Markdown expect.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true, typographer: false });

const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
markdown.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const href = tokens[i]?.attrGet('href') ?? '';
  if (/^https?:/i.test(href)) tokens[i]?.attrSet('rel', 'nofollow noopener');
  return defaultLinkOpen(tokens, i, options, env, self);
};

export const markdownHtml = (text: string): SafeHtml => new SafeHtml(markdown.render(text));

/**
 * A Markdown text as the words a reader sees, on one line (no `**`, `#` or link targets): for a card's line, a
 * description in link previews and search results, where markup has no place.
 */
export function markdownText(text: string): string {
  const words: string[] = [];
  for (const token of markdown.parse(text, {})) {
    if (token.type !== 'inline') continue;
    const line = (token.children ?? [])
      .map((child) =>
        child.type === 'text' || child.type === 'code_inline' ? child.content : child.type.endsWith('break') ? ' ' : '',
      )
      .join('');
    words.push(line);
  }
  return words.join(' ').replace(/\s+/g, ' ').trim();
}
