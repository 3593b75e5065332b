import Type, { type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import { Account } from './schema.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const ExportedEnrollment = Type.Object({
  course_id: Type.String(),
  course_title: Type.String(),
  source: Type.String({ description: 'manual, order, subscription or import' }),
  status: Type.String({ description: 'active, completed, expired or revoked' }),
  enrolled_at: Timestamp,
  expires_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
  progress_percent: Type.Number(),
});
export type ExportedEnrollment = Static<typeof ExportedEnrollment>;

export const ExportedLessonCompletion = Type.Object({
  course_id: Type.String(),
  lesson_id: Type.String(),
  completed_at: Timestamp,
});
export type ExportedLessonCompletion = Static<typeof ExportedLessonCompletion>;

/** Where the person stopped in a video or audio lesson, which the player resumes from. */
export const ExportedPlaybackPosition = Type.Object({
  lesson_id: Type.String(),
  position_s: Type.Integer(),
  duration_s: Type.Integer(),
  updated_at: Timestamp,
});
export type ExportedPlaybackPosition = Static<typeof ExportedPlaybackPosition>;

const Amount = Type.Integer({ description: 'In minor units of the order currency' });
export const ExportedOrder = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  status: Type.String(),
  currency: Type.String(),
  subtotal: Amount,
  discount: Amount,
  total: Amount,
  refunded_amount: Amount,
  coupon_code: Nullable(Type.String()),
  items: Type.Array(Type.Object({ item_type: Type.String(), title: Type.String(), amount: Amount })),
  created_at: Timestamp,
  paid_at: Nullable(Timestamp),
});
export type ExportedOrder = Static<typeof ExportedOrder>;

export const ExportedCertificate = Type.Object({
  code: Type.String({ description: 'Its public page is /certificates/{code}' }),
  course_id: Type.String(),
  course_title: Type.String(),
  recipient_name: Type.String(),
  issued_at: Timestamp,
  revoked_at: Nullable(Timestamp),
});
export type ExportedCertificate = Static<typeof ExportedCertificate>;

export const ExportedFormSubmission = Type.Object({
  form_id: Type.String(),
  values: Type.Record(Type.String(), Type.Unknown(), { description: 'What was sent, by field name' }),
  created_at: Timestamp,
});
export type ExportedFormSubmission = Static<typeof ExportedFormSubmission>;

/** The records of one part of the export; their fields are listed in docs/account.md (kept short in /openapi.json). */
const Records = (_fields: string) => Type.Array(Type.Unknown());

/** Everything the school keeps about the signed-in person, read in one transaction (GDPR art. 15 and 20). */
export const AccountExport = Type.Object(
  {
    exported_at: Timestamp,
    profile: Account,
    enrollments: Records(
      'course_id, course_title, source, status, enrolled_at, expires_at, completed_at, progress_percent',
    ),
    lesson_completions: Records('course_id, lesson_id, completed_at'),
    playback_positions: Records('lesson_id, position_s, duration_s, updated_at'),
    orders: Records(
      'id, number, status, currency, subtotal, discount, total, refunded_amount (minor units), coupon_code, items (item_type, title, amount), created_at, paid_at',
    ),
    certificates: Records('code, course_id, course_title, recipient_name, issued_at, revoked_at'),
    form_submissions: Records('form_id, values, created_at: sent signed in or naming your address'),
  },
  { $id: 'AccountExport' },
);
export type AccountExport = {
  exported_at: string;
  profile: Static<typeof Account>;
  enrollments: ExportedEnrollment[];
  lesson_completions: ExportedLessonCompletion[];
  playback_positions: ExportedPlaybackPosition[];
  orders: ExportedOrder[];
  certificates: ExportedCertificate[];
  form_submissions: ExportedFormSubmission[];
};
