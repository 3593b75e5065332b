import { newId } from '../../db/ids.ts';
import type { Executor, FormSubmissionsTable, FormsTable } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { csvLine } from '../csv.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { References } from '../references.ts';
import { withRowLock } from '../row-locks.ts';
import type { SchoolSettings } from '../school-settings.ts';
import { checkDefinition, lostField } from './definition.ts';
import type { FormMail } from './mail.ts';
import type {
  Form,
  FormCreate,
  FormField,
  FormListQuery,
  FormUpdate,
  Submission,
  SubmissionExportQuery,
  SubmissionListQuery,
} from './schema.ts';
import type { FormRow, FormsStore } from './store.ts';
import { readValues, shownValue, type Values } from './values.ts';

export const DEFAULT_SUCCESS_MESSAGE = 'Thank you, we have received your message.';

/** Rows per page of the CSV export. */
const EXPORT_PAGE = 500;

/** What the public page needs of a form: never its recipients or counts. */
export type PublicForm = Pick<Form, 'id' | 'title' | 'fields' | 'success_message'>;

const fieldsOf = (row: FormsTable) => JSON.parse(row.fields) as FormField[];

function toForm(row: FormRow): Form {
  return {
    id: row.id,
    title: row.title,
    page_id: row.page_id,
    status: row.status,
    fields: fieldsOf(row),
    success_message: row.success_message,
    notify_emails: JSON.parse(row.notify_emails) as string[],
    submission_count: Number(row.submission_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const toSubmission = (row: FormSubmissionsTable): Submission => ({
  id: row.id,
  form_id: row.form_id,
  values: JSON.parse(row.values) as Values,
  email: row.email,
  user_id: row.user_id,
  created_at: row.created_at,
});

/**
 * Forms on the school's pages, for staff (defined with pages:write, read with forms:read), and the submissions
 * visitors send from the page (`submit`). A form is shown after its page's body while it is active; closing it takes
 * it off the page and keeps its submissions. Each submission is checked against the fields under the form's row lock
 * (so a definition change and a submission never cross), stored, and announced to the form's recipients through the
 * outbox in the same transaction. A sender is limited to `perWindow` submissions per form and window, counted under a
 * keyed hash of their address — the address itself is never stored.
 */
export function formsService(
  deps: AreaDeps & {
    store: FormsStore;
    mail: FormMail;
    school: SchoolSettings;
    references: References;
    limiter: RateLimiter;
    /** The rate-limit key of a client address: a keyed hash, so the counters hold no address either. */
    addressKey: (address: string) => string;
  },
) {
  const { db, clock, store, limiter } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('form');
  const limit = {
    perWindow: deps.config.FORM_SUBMISSIONS_PER_WINDOW,
    windowSeconds: deps.config.FORM_SUBMISSION_WINDOW_SECONDS,
  };

  async function load(ex: Executor, id: string) {
    const row = await store.find(ex, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkPage(ex: Executor, pageId: string | null | undefined) {
    if (pageId && !(await deps.references.existing(ex, 'page', [pageId])).has(pageId))
      throw errors.invalidRequest(`No page ${pageId}.`, [
        { field: 'page_id', code: 'not_found', message: 'No such page.' },
      ]);
  }

  const blank = (field: string, what: string) =>
    errors.invalidRequest(`${what} cannot be blank.`, [{ field, code: 'blank', message: `${what} cannot be blank.` }]);

  function textOf(value: string | undefined, field: string, what: string) {
    if (value === undefined) return undefined;
    const text = value.trim();
    if (!text) throw blank(field, what);
    return text;
  }

  /** The submissions the filters select, newest first unless `sort` says otherwise. */
  function selected(formId: string, query: SubmissionExportQuery) {
    let q = store.submissions(db, formId);
    if (query.email) q = q.where(store.submissionsFrom(query.email));
    if (query.q) q = q.where(store.submissionsContaining(query.q));
    return q;
  }

  const lockForm = <T>(id: string, fn: (trx: Executor, row: FormsTable) => Promise<T>) =>
    withRowLock(db, 'forms', id, notFound, fn);

  return {
    async list(query: FormListQuery) {
      let q = store.baseQuery(db);
      if (query.status) q = q.where('forms.status', '=', query.status);
      if (query.page_id) q = q.where('forms.page_id', '=', query.page_id);
      if (query.q) q = q.where(containsText('forms.title', query.q));
      const page = await paginate(q, query, 'forms.id', 'forms.created_at');
      return { ...page, data: page.data.map((row) => toForm(row as FormRow)) };
    },

    get: async (id: string) => toForm(await load(db, id)),

    async create(input: FormCreate) {
      const fields = checkDefinition(input.fields);
      const title = textOf(input.title, 'title', 'A title') ?? '';
      const success = textOf(input.success_message, 'success_message', 'The success message');
      await checkPage(db, input.page_id);
      const at = now();
      const row: FormsTable = {
        id: newId('frm'),
        page_id: input.page_id ?? null,
        title,
        fields: JSON.stringify(fields),
        success_message: success ?? DEFAULT_SUCCESS_MESSAGE,
        notify_emails: JSON.stringify((input.notify_emails ?? []).map((e) => e.toLowerCase())),
        status: input.status ?? 'active',
        created_at: at,
        updated_at: at,
      };
      return db.transaction().execute(async (trx) => {
        await store.insert(trx, row);
        const created = toForm({ ...row, submission_count: 0 });
        await deps.writes.made(trx, created);
        return created;
      });
    },

    /** Under the form's lock: a submission arriving meanwhile is judged on the fields before or after, never both. */
    async update(id: string, input: FormUpdate) {
      const fields = input.fields && checkDefinition(input.fields);
      const title = textOf(input.title, 'title', 'A title');
      const success = textOf(input.success_message, 'success_message', 'The success message');
      return lockForm(id, async (trx, row) => {
        await checkPage(trx, input.page_id);
        const changes: Partial<FormsTable> = { updated_at: now() };
        if (fields) {
          const lost = lostField(fieldsOf(row), fields);
          if (lost && (await store.hasSubmissions(trx, id))) {
            throw errors.conflict(
              `The form has submissions, so its field "${lost.name}" (${lost.type}) cannot be removed, renamed or change type: ` +
                'its values are stored under that name. Add a new field instead, or close this form and make another.',
            );
          }
          changes.fields = JSON.stringify(fields);
        }
        if (title !== undefined) changes.title = title;
        if (success !== undefined) changes.success_message = success;
        if (input.page_id !== undefined) changes.page_id = input.page_id;
        if (input.status !== undefined) changes.status = input.status;
        if (input.notify_emails !== undefined)
          changes.notify_emails = JSON.stringify(input.notify_emails.map((e) => e.toLowerCase()));
        await store.update(trx, id, changes);
        return toForm(await load(trx, id));
      });
    },

    /**
     * Under the form's lock, which a submission takes too: a submission racing the delete either lands first (409 here)
     * or finds no form (404), never a deleted form with a submission.
     */
    delete: (id: string) =>
      lockForm(id, async (trx) => {
        if (await store.deleteUnused(trx, id)) return;
        throw errors.conflict(
          `This form has submissions, so it is kept with them; close it instead (PATCH /api/v1/forms/${id} with {"status": "closed"}).`,
        );
      }),

    async listSubmissions(formId: string, query: SubmissionListQuery) {
      await load(db, formId);
      const page = await paginate(selected(formId, query), query, 'id', 'created_at');
      return { ...page, data: page.data.map(toSubmission) };
    },

    /**
     * Every submission the filters select as CSV lines: a header of the field labels (between the submission's id and
     * time and the sender's user id), then one line per submission, in the list's order; not paged.
     */
    async exportCsv(formId: string, query: SubmissionExportQuery): Promise<AsyncIterable<string>> {
      const form = toForm(await load(db, formId));
      const rows = selected(formId, query);
      return (async function* () {
        yield csvLine(['Submission', 'Submitted at', ...form.fields.map((f) => f.label), 'Signed-in user']);
        for (let after: string | undefined; ; ) {
          const params = { ...query, limit: EXPORT_PAGE, starting_after: after };
          const page = await paginate(rows, params, 'id', 'created_at');
          for (const row of page.data) {
            const values = JSON.parse(row.values) as Values;
            yield csvLine([
              row.id,
              row.created_at,
              ...form.fields.map((f) => shownValue(f, values[f.name])),
              row.user_id,
            ]);
          }
          if (!page.has_more || !page.next_cursor) return;
          after = page.next_cursor;
        }
      })();
    },

    /** The active forms a page shows after its body. */
    async onPage(pageId: string): Promise<PublicForm[]> {
      return (await store.activeOnPage(db, pageId)).map((row) => ({
        id: row.id,
        title: row.title,
        fields: fieldsOf(row),
        success_message: row.success_message,
      }));
    },

    /**
     * A visitor's submission of form `formId` from page `pageId`: 404 when the form is not on that page, 409 when it is
     * closed, 429 past the sender's limit, 400 naming each field that needs correcting (not counted against the
     * limit: people retrying a mistake are not spammers). Returns the stored submission.
     */
    async submit(input: {
      formId: string;
      pageId: string;
      posted: Record<string, unknown>;
      userId: string | null;
      address: string;
    }): Promise<Submission> {
      const key = `form:${input.formId}:${deps.addressKey(input.address)}`;
      const state = await limiter.hit(key, limit.windowSeconds);
      if (state.count > limit.perWindow) {
        await limiter.release(key);
        throw errors.rateLimited(state.retryAfterSeconds);
      }
      try {
        // Checked first without the lock (a write on SQLite), so refused posts never hold up other writers; checked
        // again under it, where the form is as it will be written against.
        const seen = await store.find(db, input.formId);
        if (seen?.page_id === input.pageId && seen.status === 'active') readValues(fieldsOf(seen), input.posted);
        return await lockForm(input.formId, async (trx, form) => {
          if (form.page_id !== input.pageId) throw notFound();
          if (form.status !== 'active') throw errors.conflict('This form is closed and no longer takes submissions.');
          const fields = fieldsOf(form);
          const { values, email } = readValues(fields, input.posted);
          const row: FormSubmissionsTable = {
            id: newId('fsb'),
            form_id: form.id,
            user_id: input.userId,
            email,
            values: JSON.stringify(values),
            search_text: Object.values(values)
              .filter((v): v is string => typeof v === 'string')
              .join('\n'),
            created_at: now(),
          };
          await store.insertSubmission(trx, row);
          const recipients = JSON.parse(form.notify_emails) as string[];
          // Nobody named: the support address, else every owner and staff.
          const support = recipients.length ? null : (await deps.school.settings(trx)).support_email;
          const to = recipients.length ? recipients : support ? [support] : await store.staffEmails(trx);
          const lines = fields.map((f) => ({ label: f.label, value: shownValue(f, values[f.name]) }));
          for (const address of to)
            await deps.mail.formSubmitted(trx, { to: address, form: { id: form.id, title: form.title }, lines });
          return toSubmission(row);
        });
      } catch (error) {
        if (error instanceof ApiError && error.code !== 'rate_limited') await limiter.release(key);
        throw error;
      }
    },
  };
}

export type FormsService = ReturnType<typeof formsService>;
