import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';

export type AttendanceRow = { id: string; name: string; email: string; attended: boolean | null };

/** A checklist of an event's seat holders; each row says who it is, ticked when they came. */
export function attendanceView(opts: { eventPath: string; rows: AttendanceRow[]; csrf: string }): SafeHtml {
  const back = html`<p><a href="${opts.eventPath}">Back to the event</a></p>`;
  if (opts.rows.length === 0) return html`${back}<p class="meta">Nobody holds a seat at this event.</p>`;
  return html`${back}<form method="post" action="${opts.eventPath}/attendance">${csrfField(opts.csrf)}
<fieldset><legend>Who came (${opts.rows.length} seat holder${opts.rows.length === 1 ? '' : 's'})</legend>
${opts.rows.map(
  (row) =>
    html`<div class="field field-check"><input type="hidden" name="shown" value="${row.id}"><input type="checkbox" id="a-${row.id}" name="attended" value="${row.id}"${
      row.attended ? html` checked` : ''
    }> <label for="a-${row.id}">${row.name} <span class="meta">${row.email}${row.attended === null ? ' · not recorded yet' : ''}</span></label></div>`,
)}</fieldset>
<p><button type="submit">Save attendance</button></p></form>`;
}
