import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';
import { Email } from '../../identity/schema.ts';

/** Most fields one form has. */
export const MAX_FIELDS = 50;
/** Most options one choice field offers. */
export const MAX_OPTIONS = 50;

export const FieldType = Type.Union(
  [
    Type.Literal('text'),
    Type.Literal('email'),
    Type.Literal('long_text'),
    Type.Literal('choice'),
    Type.Literal('checkbox'),
    Type.Literal('consent'),
  ],
  {
    description:
      'text: one line; email: an address; long_text: several lines; choice: one of `options`; checkbox: yes or no; ' +
      'consent: a checkbox that must be ticked, its label being the statement agreed to (stored with each submission)',
  },
);
export type FieldType = Static<typeof FieldType>;

/** The typed fields' default and largest max_length. */
export const LENGTHS = {
  text: { default: 200, max: 1000 },
  email: { default: 254, max: 254 },
  long_text: { default: 5000, max: 10_000 },
} as const satisfies Partial<Record<FieldType, { default: number; max: number }>>;

const Name = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'The key of the value in submissions: lower-case letters, digits and _, starting with a letter; unique',
});

export const FormField = Type.Object({
  name: Type.String(),
  label: Type.String(),
  type: FieldType,
  required: Type.Boolean(),
  help: Type.Union([Type.String(), Type.Null()]),
  max_length: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Most characters accepted (text, email, long_text); null for the other types',
  }),
  options: Type.Optional(Type.Array(Type.String(), { description: 'The choices of a choice field, in order' })),
});
export type FormField = Static<typeof FormField>;

export const FormFieldInput = Type.Object(
  {
    name: Name,
    label: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'What the page shows (up to 200 characters; a consent statement up to 2,000)',
    }),
    type: FieldType,
    required: Type.Optional(
      Type.Boolean({
        description: 'Default false; a consent field is always required, a checkbox must then be ticked',
      }),
    ),
    help: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    max_length: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: LENGTHS.long_text.max }), Type.Null()], {
        description: 'text: default 200, at most 1,000; email: 254; long_text: default 5,000, at most 10,000',
      }),
    ),
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: MAX_OPTIONS,
        description: 'choice fields only: 1–50 distinct options',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FormFieldInput = Static<typeof FormFieldInput>;

const Status = Type.Union([Type.Literal('active'), Type.Literal('closed')], {
  description: 'active: shown on its page and taking submissions; closed: off the page, its submissions kept',
});

export const Form = Type.Object(
  {
    id: Id('frm'),
    title: Type.String(),
    page_id: Type.Union([Id('pag'), Type.Null()], {
      description: 'The page that shows the form after its body (null: on no page)',
    }),
    status: Status,
    fields: Type.Array(FormField),
    success_message: Type.String({ description: 'Shown to the visitor after a submission' }),
    notify_emails: Type.Array(Type.String(), {
      description:
        "Who is e-mailed each submission; empty: the school's support e-mail, or every owner and staff member when it has none",
    }),
    submission_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Form' },
);
export type Form = Static<typeof Form>;

const Writable = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  page_id: Type.Union([Id('pag'), Type.Null()]),
  status: Status,
  fields: Type.Array(FormFieldInput, { minItems: 1, maxItems: MAX_FIELDS }),
  success_message: Type.String({ minLength: 1, maxLength: 2000 }),
  notify_emails: Type.Array(Email, { maxItems: 10, uniqueItems: true }),
};

export const FormCreate = Type.Object(
  {
    ...Type.Partial(Type.Object(Writable)).properties,
    title: Writable.title,
    fields: Writable.fields,
  },
  {
    additionalProperties: false,
    description:
      'status defaults to active, page_id to null (on no page), success_message to "Thank you, we have received your message.", notify_emails to []',
  },
);
export type FormCreate = Static<typeof FormCreate>;

export const FormUpdate = Type.Partial(Type.Object(Writable), {
  additionalProperties: false,
  minProperties: 1,
  description:
    'fields replaces the whole list. Once the form has submissions its fields keep their names and types: fields can be ' +
    'added, relabelled, reordered and their rules changed, but not removed, renamed or retyped (409)',
});
export type FormUpdate = Static<typeof FormUpdate>;

export const FormListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    page_id: Type.Optional(Id('pag')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
  },
  { additionalProperties: false },
);
export type FormListQuery = Static<typeof FormListQuery>;

export const FormPage = Page(Form);

export const FormIdParams = Type.Object({ id: Id('frm') }, { additionalProperties: false });

export const Submission = Type.Object(
  {
    id: Id('fsb'),
    form_id: Id('frm'),
    values: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]), {
      description:
        'By field name: text for text, email, long_text and choice (left out when left empty); true/false for a ' +
        'checkbox; the statement agreed to for a consent',
    }),
    email: Type.Union([Type.String(), Type.Null()], { description: 'The value of the first e-mail field' }),
    user_id: Type.Union([Id('usr'), Type.Null()], { description: 'The sender, when they were signed in' }),
    created_at: Timestamp,
  },
  { $id: 'FormSubmission' },
);
export type Submission = Static<typeof Submission>;

const SubmissionFilters = {
  created_after: ListQueryBase.created_after,
  created_before: ListQueryBase.created_before,
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Sent from this e-mail (any case)' })),
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the e-mail or any value (any case)' }),
  ),
};

export const SubmissionListQuery = Type.Object(
  { ...ListQueryBase, ...SubmissionFilters },
  { additionalProperties: false },
);
export type SubmissionListQuery = Static<typeof SubmissionListQuery>;

export const SubmissionExportQuery = Type.Object(
  { ...SubmissionFilters, sort: ListQueryBase.sort },
  { additionalProperties: false },
);
export type SubmissionExportQuery = Static<typeof SubmissionExportQuery>;

export const SubmissionPage = Page(Submission);
