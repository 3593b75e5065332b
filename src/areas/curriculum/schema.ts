import Type, { type Static } from 'typebox';
import { HttpUrl, Id, IdParams, Page, Timestamp } from '../../http/schemas.ts';

/**
 * A quiz lesson's questions. Each question has choices and the indexes of the right ones (one or several); a
 * submission passes when its share of fully right questions reaches `pass_percent`. Answers are shown to staff only.
 */
export const QuizInput = Type.Object(
  {
    pass_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of questions to get right to pass' }),
    max_attempts: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
        description: 'Attempts a student may make; null or absent for no limit',
      }),
    ),
    questions: Type.Array(
      Type.Object(
        {
          prompt: Type.String({ minLength: 1, maxLength: 2000 }),
          choices: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 2, maxItems: 10 }),
          answers: Type.Array(Type.Integer({ minimum: 0, maximum: 9 }), {
            minItems: 1,
            maxItems: 10,
            uniqueItems: true,
            description: 'Indexes (0-based) of the right choices',
          }),
          explanation: Type.Optional(Type.String({ maxLength: 2000, description: 'Shown after an attempt' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type QuizInput = Static<typeof QuizInput>;

/** What the caller sees: staff get the answers and explanations; students the questions only. */
export const Quiz = Type.Object({
  pass_percent: Type.Integer(),
  max_attempts: Type.Union([Type.Integer(), Type.Null()]),
  questions: Type.Array(
    Type.Object({
      prompt: Type.String(),
      choices: Type.Array(Type.String()),
      multiple: Type.Boolean({ description: 'More than one choice is right: the question takes several answers' }),
      answers: Type.Optional(Type.Array(Type.Integer())),
      explanation: Type.Optional(Type.String()),
    }),
  ),
});
export type Quiz = Static<typeof Quiz>;

/** A student's answers: for each question in order, the indexes of the choices they picked. */
export const QuizSubmission = Type.Object(
  {
    answers: Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 9 }), { maxItems: 10, uniqueItems: true }), {
      minItems: 1,
      maxItems: 50,
    }),
  },
  { additionalProperties: false },
);
export type QuizSubmission = Static<typeof QuizSubmission>;

export const QuizAttempt = Type.Object(
  {
    id: Id('qat'),
    lesson_id: Id('les'),
    user_id: Id('usr'),
    answers: Type.Array(Type.Array(Type.Integer())),
    score_percent: Type.Integer(),
    passed: Type.Boolean(),
    /** Per question: right or not, with the explanation when the quiz has one. */
    results: Type.Array(
      Type.Object({ correct: Type.Boolean(), explanation: Type.Union([Type.String(), Type.Null()]) }),
    ),
    created_at: Timestamp,
  },
  { $id: 'QuizAttempt' },
);
export type QuizAttempt = Static<typeof QuizAttempt>;

/** A course holds at most this many sections and a section this many lessons, so their lists need no cursor. */
export const MAX_SECTIONS_PER_COURSE = 100;
export const MAX_LESSONS_PER_SECTION = 100;

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published')]);
const Title = Type.String({ minLength: 1, maxLength: 200 });
const Position = (description: string) => Type.Integer({ minimum: 0, maximum: 1000, description });
const AvailableAt = Type.Union([Timestamp, Type.Null()], {
  description:
    'When drip opens this to the caller; null when it is open already, or when enrollment (not time) unlocks it',
});

const DripType = Type.Union([Type.Literal('none'), Type.Literal('days_after_enrollment'), Type.Literal('on_date')], {
  description:
    'none: open at once; days_after_enrollment: opens `days` days after the student enrolled; on_date: opens at `date`',
});

export const Drip = Type.Object({
  type: DripType,
  days: Type.Union([Type.Integer(), Type.Null()]),
  date: Type.Union([Timestamp, Type.Null()]),
});
export type Drip = Static<typeof Drip>;

export const DripInput = Type.Object(
  {
    type: DripType,
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'With days_after_enrollment only' })),
    date: Type.Optional(Type.String({ format: 'date-time', description: 'With on_date only' })),
  },
  { additionalProperties: false },
);
export type DripInput = Static<typeof DripInput>;

export const Section = Type.Object(
  {
    id: Id('sec'),
    course_id: Id('crs'),
    title: Type.String(),
    position: Type.Integer(),
    drip: Drip,
    status: Status,
    available_at: AvailableAt,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Section' },
);
export type Section = Static<typeof Section>;

export const SectionCreate = Type.Object(
  {
    title: Title,
    drip: Type.Optional(DripInput),
    position: Type.Optional(Position('Where to insert it (0-based); the end when absent')),
  },
  { additionalProperties: false },
);
export type SectionCreate = Static<typeof SectionCreate>;

export const SectionUpdate = Type.Partial(Type.Omit(SectionCreate, ['position']), {
  additionalProperties: false,
  minProperties: 1,
});
export type SectionUpdate = Static<typeof SectionUpdate>;

export const SectionListQuery = Type.Object(
  { status: Type.Optional(Status) },
  {
    additionalProperties: false,
    description: `Sections come in position order, all in one page (a course has at most ${MAX_SECTIONS_PER_COURSE})`,
  },
);
export type SectionListQuery = Static<typeof SectionListQuery>;

export const SectionPage = Page(Section);

/** A new order: `field` lists every item (ids with `prefix`) of the parent exactly once. */
function Reorder<F extends string>(field: F, prefix: string, maxItems: number, description: string) {
  const ids = Type.Array(Id(prefix), { maxItems, uniqueItems: true, description });
  return Type.Object({ [field]: ids } as Record<F, typeof ids>, { additionalProperties: false });
}

export const SectionReorder = Reorder(
  'section_ids',
  'sec',
  MAX_SECTIONS_PER_COURSE,
  'Every section of the course exactly once, in the new order',
);
export type SectionReorder = Static<typeof SectionReorder>;

const LessonType = Type.Union([
  Type.Literal('text'),
  Type.Literal('video'),
  Type.Literal('audio'),
  Type.Literal('pdf'),
  Type.Literal('download'),
  Type.Literal('embed'),
  Type.Literal('quiz'),
]);

export const Lesson = Type.Object(
  {
    id: Id('les'),
    course_id: Id('crs'),
    section_id: Id('sec'),
    title: Type.String(),
    type: LessonType,
    body: Type.Union([Type.String(), Type.Null()], { description: 'null when locked' }),
    asset_url: Type.Union([Type.String(), Type.Null()], {
      description:
        'The lesson file: a signed URL of asset_id when that is set (valid until asset_url_expires_at), else the URL given; null when locked or when there is none',
    }),
    asset_id: Type.Union([Type.String(), Type.Null()], { description: 'The uploaded file; null when locked' }),
    asset_url_expires_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the signed asset_url stops working (fetch the lesson again for a new one); null otherwise',
    }),
    duration_s: Type.Union([Type.Integer(), Type.Null()]),
    is_preview: Type.Boolean({ description: 'A free sample: its body is open to everyone who can see the course' }),
    position: Type.Integer(),
    status: Status,
    locked: Type.Boolean({
      description: 'true when the caller may not see the body yet: enroll in the course, or wait until available_at',
    }),
    available_at: AvailableAt,
    quiz: Type.Union([Quiz, Type.Null()], {
      description: 'A quiz lesson’s questions (answers shown to staff only); null when locked or not a quiz',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Lesson' },
);
export type Lesson = Static<typeof Lesson>;

export const LessonCreate = Type.Object(
  {
    title: Title,
    type: Type.Optional(LessonType),
    body: Type.Optional(
      Type.String({ maxLength: 100_000, description: 'Text, a quiz’s introduction, or embed code, by type' }),
    ),
    quiz: Type.Optional(Type.Union([QuizInput, Type.Null()], { description: 'The questions of a quiz lesson' })),
    asset_url: Type.Optional(
      Type.Union([HttpUrl, Type.Null()], { description: 'The video, audio, pdf or download file, elsewhere' }),
    ),
    asset_id: Type.Optional(
      Type.Union([Id('ast'), Type.Null()], {
        description:
          'An uploaded file (POST /api/v1/storage/assets) of the purpose the type needs (video, audio, pdf; any for download, text, quiz and embed); served in place of asset_url, to entitled callers only',
      }),
    ),
    duration_s: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()])),
    is_preview: Type.Optional(Type.Boolean()),
    position: Type.Optional(Position('Where to insert it in the section (0-based); the end when absent')),
  },
  { additionalProperties: false },
);
export type LessonCreate = Static<typeof LessonCreate>;

export const LessonUpdate = Type.Partial(Type.Omit(LessonCreate, ['position']), {
  additionalProperties: false,
  minProperties: 1,
});
export type LessonUpdate = Static<typeof LessonUpdate>;

export const LessonListQuery = Type.Object(
  { status: Type.Optional(Status), type: Type.Optional(LessonType) },
  {
    additionalProperties: false,
    description: `Lessons come in position order, all in one page (a section has at most ${MAX_LESSONS_PER_SECTION})`,
  },
);
export type LessonListQuery = Static<typeof LessonListQuery>;

export const LessonPage = Page(Lesson);

export const LessonMove = Type.Object(
  {
    section_id: Id('sec'),
    position: Type.Optional(Position('Place in the target section (0-based); the end when absent')),
  },
  { additionalProperties: false },
);
export type LessonMove = Static<typeof LessonMove>;

export const LessonReorder = Reorder(
  'lesson_ids',
  'les',
  MAX_LESSONS_PER_SECTION,
  'Every lesson of the section exactly once, in the new order',
);
export type LessonReorder = Static<typeof LessonReorder>;

export const SectionIdParams = IdParams('sec');
export const LessonIdParams = IdParams('les');
