import { html, type SafeHtml } from '../../text/html.ts';

/** Plain text as paragraphs: blank lines separate paragraphs, single line breaks are kept. */
export function paragraphs(text: string): SafeHtml[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => html`<p>${p.split('\n').map((line, i) => html`${i ? html`<br>` : ''}${line}`)}</p>`);
}

/** The first sentence-sized piece of a text, on one line: for descriptions in link previews and search results. */
export function summary(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}
