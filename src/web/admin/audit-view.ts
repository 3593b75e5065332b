import { html, type SafeHtml } from '../../text/html.ts';
import { zoneWords } from './form-kit/school-time.ts';

/** One entry of the log as a person reads it: who, what to which object (a link while it exists), when. */
export type AuditLine = {
  who: string;
  /** The phrase of the operation, split around its object: before {object}, and after it. */
  before: string;
  after: string;
  object?: { name: string; href?: string };
  through?: string;
  when: string;
  at: string;
  entryHref: string;
};

/** The audit log as sentences, newest first, with a link to older entries. */
export function auditView(opts: { lines: AuditLine[]; olderHref?: string; timezone: string }): SafeHtml {
  const objectOf = (line: AuditLine) =>
    line.object
      ? line.object.href
        ? html` <a href="${line.object.href}">“${line.object.name}”</a>`
        : html` “${line.object.name}”`
      : '';
  if (opts.lines.length === 0) return html`<p class="meta">Nothing has been changed yet.</p>`;
  return html`<p class="meta">Every change made to the school, newest first. Times are in ${zoneWords(opts.timezone)}.</p>
<ol class="audit-log">${opts.lines.map(
    (line) =>
      html`<li><p>${line.who} ${line.before}${objectOf(line)}${line.after ? ` ${line.after}` : ''}${
        line.through ? html`, through the app “${line.through}”` : ''
      } · <a href="${line.entryHref}"><time datetime="${line.at}">${line.when}</time></a></p></li>`,
  )}</ol>${opts.olderHref ? html`<p><a href="${opts.olderHref}">Older changes</a></p>` : ''}`;
}
