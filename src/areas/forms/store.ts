import type { ExpressionBuilder } from 'kysely';
import type { Executor, FormSubmissionsTable, FormsTable, Tables } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';

export type FormRow = FormsTable & { submission_count: number | string };

const submissionCount = (eb: ExpressionBuilder<Tables, 'forms'>) =>
  eb
    .selectFrom('form_submissions')
    .select((e) => e.fn.countAll().as('n'))
    .whereRef('form_submissions.form_id', '=', 'forms.id')
    .as('submission_count');

const withCount = (ex: Executor) => ex.selectFrom('forms').selectAll('forms').select(submissionCount);

export function formsStore() {
  return {
    baseQuery: withCount,

    find: (ex: Executor, id: string) =>
      withCount(ex).where('forms.id', '=', id).executeTakeFirst() as Promise<FormRow | undefined>,

    /** The active forms a page shows, in the order they were made. */
    activeOnPage: (ex: Executor, pageId: string) =>
      ex
        .selectFrom('forms')
        .selectAll()
        .where('page_id', '=', pageId)
        .where('status', '=', 'active')
        .orderBy('id')
        .execute(),

    insert: async (ex: Executor, row: FormsTable) => {
      await ex.insertInto('forms').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<FormsTable>) => {
      await ex.updateTable('forms').set(changes).where('id', '=', id).execute();
    },

    hasSubmissions: async (ex: Executor, formId: string) =>
      (await ex.selectFrom('form_submissions').select('id').where('form_id', '=', formId).executeTakeFirst()) !==
      undefined,

    /** Deletes the form unless it has submissions, deciding in the statement itself; returns whether it went. */
    deleteUnused: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('forms')
        .where('id', '=', id)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('form_submissions').select('id').where('form_id', '=', id))))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    submissions: (ex: Executor, formId: string) =>
      ex.selectFrom('form_submissions').selectAll().where('form_id', '=', formId),

    /** The e-mail is stored lower-cased, so the filter compares lower-cased. */
    submissionsFrom: (email: string) => (eb: ExpressionBuilder<Tables, 'form_submissions'>) =>
      eb('email', '=', email.toLowerCase()),

    /** `text` in the e-mail or in an answer, case-insensitively and literally. */
    submissionsContaining: (text: string) => (eb: ExpressionBuilder<Tables, 'form_submissions'>) =>
      eb.or([containsText('email', text), containsText('search_text', text)]),

    insertSubmission: async (ex: Executor, row: FormSubmissionsTable) => {
      await ex.insertInto('form_submissions').values(row).execute();
    },

    /** Every active owner's and staff member's address, oldest first. */
    staffEmails: async (ex: Executor): Promise<string[]> => {
      const staff = await ex
        .selectFrom('users')
        .select('email')
        .where('role', 'in', ['owner', 'staff'])
        .where('status', '=', 'active')
        .orderBy('created_at')
        .execute();
      return staff.map((u) => u.email);
    },
  };
}

export type FormsStore = ReturnType<typeof formsStore>;
