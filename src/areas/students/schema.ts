import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';
import { Email, PersonName } from '../../identity/schema.ts';
import { QuizAttempt } from '../curriculum/schema.ts';

/** Most rows one bulk enrollment takes. */
export const MAX_BULK_ROWS = 1000;

const StudentStatus = Type.Union([Type.Literal('active'), Type.Literal('suspended')], {
  description: 'suspended: cannot sign in; their browser sessions ended and their tokens are refused',
});

export const EnrollmentStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('completed'), Type.Literal('expired'), Type.Literal('revoked')],
  { description: 'expired: active, but its expires_at has passed' },
);
export type EnrollmentStatus = Static<typeof EnrollmentStatus>;

const Source = Type.Union(
  [Type.Literal('manual'), Type.Literal('order'), Type.Literal('subscription'), Type.Literal('import')],
  { description: 'How the enrollment came about' },
);

export const Student = Type.Object(
  {
    id: Id('usr'),
    email: Type.String(),
    name: Type.String(),
    status: StudentStatus,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Student' },
);
export type Student = Static<typeof Student>;

export const StudentCreate = Type.Object(
  { email: Email, name: PersonName },
  {
    additionalProperties: false,
    description: 'Upsert by email: a student with this email keeps their account and gets the new name',
  },
);
export type StudentCreate = Static<typeof StudentCreate>;

export const StudentUpdate = Type.Object(Type.Partial(Type.Object({ email: Email, name: PersonName })).properties, {
  additionalProperties: false,
  minProperties: 1,
});
export type StudentUpdate = Static<typeof StudentUpdate>;

export const StudentListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(StudentStatus),
    course_id: Type.Optional(Id('crs')),
    enrollment_status: Type.Optional(EnrollmentStatus),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name or email' })),
  },
  { additionalProperties: false },
);
export type StudentListQuery = Static<typeof StudentListQuery>;

export const StudentPage = Page(Student);

const StudentKey = Type.String({
  pattern: '^(me|usr_[0-9a-z]{26})$',
  description: 'A usr_… id, or "me" for the caller',
});
export const StudentParams = Type.Object({ id: StudentKey }, { additionalProperties: false });
export const StudentIdParams = Type.Object({ id: Id('usr') }, { additionalProperties: false });
export const StudentCourseParams = Type.Object(
  { id: StudentKey, course_id: Id('crs') },
  { additionalProperties: false },
);
export const StudentEnrollmentParams = Type.Object(
  { id: Id('usr'), course_id: Id('crs') },
  { additionalProperties: false },
);
export const StudentLessonParams = Type.Object(
  { id: Id('usr'), lesson_id: Id('les') },
  { additionalProperties: false },
);
export const LessonParams = Type.Object({ lesson_id: Id('les') }, { additionalProperties: false });

export const Enrollment = Type.Object(
  {
    id: Id('enr'),
    student_id: Id('usr'),
    course_id: Id('crs'),
    course_title: Type.String(),
    course_slug: Type.String(),
    source: Source,
    status: EnrollmentStatus,
    enrolled_at: Timestamp,
    expires_at: Type.Union([Timestamp, Type.Null()]),
    completed_at: Type.Union([Timestamp, Type.Null()]),
    progress_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  },
  { $id: 'Enrollment' },
);
export type Enrollment = Static<typeof Enrollment>;

export const EnrollmentCreate = Type.Object(
  {
    course_id: Id('crs'),
    expires_at: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'null or absent: never expires' })),
    source: Type.Optional(Source),
  },
  { additionalProperties: false },
);
export type EnrollmentCreate = Static<typeof EnrollmentCreate>;

export const SelfEnrollment = Type.Object(
  { course_id: Type.String({ minLength: 1, maxLength: 120, description: 'A crs_… id or the course slug' }) },
  { additionalProperties: false },
);

export const EnrollmentListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(EnrollmentStatus),
    course_id: Type.Optional(Id('crs')),
  },
  { additionalProperties: false },
);
export type EnrollmentListQuery = Static<typeof EnrollmentListQuery>;

export const EnrollmentPage = Page(Enrollment);

export const Progress = Type.Object(
  {
    student_id: Id('usr'),
    course_id: Id('crs'),
    enrollment_status: EnrollmentStatus,
    percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Completed lessons of all published lessons' }),
    completed_lessons: Type.Integer({ minimum: 0 }),
    total_lessons: Type.Integer({ minimum: 0 }),
    next_lesson_id: Type.Union([Id('les'), Type.Null()], {
      description: 'The first lesson in course order not completed yet',
    }),
    completed_at: Type.Union([Timestamp, Type.Null()], { description: 'When the enrollment was completed' }),
    lessons: Type.Array(
      Type.Object({
        id: Id('les'),
        section_id: Id('sec'),
        title: Type.String(),
        completed_at: Type.Union([Timestamp, Type.Null()]),
      }),
    ),
  },
  { $id: 'Progress' },
);
export type Progress = Static<typeof Progress>;

export const QuizAttemptResult = Type.Object({
  attempt: QuizAttempt,
  attempts_left: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the quiz allows any number' }),
  progress: Progress,
});

export const QuizAttemptList = Type.Object({ data: Type.Array(QuizAttempt) });

export const BulkEnrollmentRow = Type.Object(
  {
    // Checked row by row: a malformed address makes its row `invalid`, not the whole request a 400.
    email: Type.String({ minLength: 1, maxLength: 254 }),
    name: Type.Optional(PersonName),
    course_id: Type.String({ minLength: 1, maxLength: 64 }),
    expires_at: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  },
  { additionalProperties: false },
);
export type BulkEnrollmentRow = Static<typeof BulkEnrollmentRow>;

export const BulkEnrollmentCreate = Type.Object(
  { rows: Type.Array(BulkEnrollmentRow, { minItems: 1, maxItems: MAX_BULK_ROWS }) },
  { additionalProperties: false },
);
export type BulkEnrollmentCreate = Static<typeof BulkEnrollmentCreate>;

export const BulkRowResult = Type.Object({
  row: Type.Integer({ minimum: 0, description: 'The row’s index in the request (0-based)' }),
  status: Type.Union([Type.Literal('enrolled'), Type.Literal('already_enrolled'), Type.Literal('invalid')]),
  student_id: Type.Optional(Id('usr')),
  error: Type.Optional(Type.String()),
});
export type BulkRowResult = Static<typeof BulkRowResult>;

export const BulkEnrollment = Type.Object(
  {
    id: Id('job'),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('succeeded'),
      Type.Literal('failed'),
    ]),
    progress: Type.Object({ done: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) }),
    results: Type.Array(BulkRowResult, { description: 'One per processed row, in row order' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'BulkEnrollment' },
);
export type BulkEnrollment = Static<typeof BulkEnrollment>;

export const JobIdParams = Type.Object({ id: Id('job') }, { additionalProperties: false });
