import Type, { type Static } from 'typebox';
import { HttpUrl, Id, IdParams, Page, Timestamp } from '../../http/schemas.ts';

/**
 * A quiz lesson's questions. Each question has choices and the indexes of the right ones (one or several); a
 * submission passes when its share of fully right questions reaches `pass_percent`. Answers are shown to staff only.
 */
export const QuizInput = Type.Object(
  {
    pass_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Share right to pass' }),
    max_attempts: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
        description: 'null or absent: no limit',
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
            description: 'Right choices (0-based)',
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
      multiple: Type.Boolean({ description: 'Several choices are right' }),
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
  description: 'When drip opens it to the caller; null if open, or if enrolling opens it',
});

const DripType = Type.Union([Type.Literal('none'), Type.Literal('days_after_enrollment'), Type.Literal('on_date')], {
  description: 'none: open at once; days_after_enrollment: `days` after enrolling; on_date: at `date`',
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
    position: Type.Optional(Position('0-based; the end when absent')),
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

export const SectionReorder = Reorder('section_ids', 'sec', MAX_SECTIONS_PER_COURSE, 'Each once, in the new order');
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

/** A BCP 47 language tag (en, pt-BR, zh-Hant). */
const Language = Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]+)*$', maxLength: 35 });

/** A caption file of a video or audio lesson: a WebVTT upload (purpose captions), its language and its name. */
export const CaptionInput = Type.Object(
  { asset_id: Id('ast'), language: Language, label: Type.String({ maxLength: 60 }) },
  { additionalProperties: false },
);
export type CaptionInput = Static<typeof CaptionInput>;

export const MAX_CAPTIONS = 10;

export const Lesson = Type.Object(
  {
    id: Id('les'),
    course_id: Id('crs'),
    section_id: Id('sec'),
    title: Type.String(),
    type: LessonType,
    body: Type.Union([Type.String(), Type.Null()]),
    asset_url: Type.Union([Type.String(), Type.Null()], {
      description: 'Signed URL of asset_id (until asset_url_expires_at), or the given URL; null if locked or none',
    }),
    asset_id: Type.Union([Type.String(), Type.Null()]),
    asset_url_expires_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When a signed asset_url expires (get the lesson again)',
    }),
    duration_s: Type.Union([Type.Integer(), Type.Null()]),
    is_preview: Type.Boolean({ description: 'A free sample, open to all who see the course' }),
    position: Type.Integer(),
    status: Status,
    locked: Type.Boolean({ description: 'Body and files hidden (null): enroll, or wait for available_at' }),
    available_at: AvailableAt,
    quiz: Type.Union([Quiz, Type.Null()], { description: 'Answers shown to staff only; null if locked or not a quiz' }),
    captions: Type.Array(
      Type.Object({ asset_id: Type.String(), language: Type.String(), label: Type.String(), url: Type.String() }),
      { description: 'url: signed' },
    ),
    poster_url: Type.Union([Type.String(), Type.Null()]),
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
    body: Type.Optional(Type.String({ maxLength: 100_000, description: 'Text, quiz intro or embed code' })),
    quiz: Type.Optional(Type.Union([QuizInput, Type.Null()])),
    asset_url: Type.Optional(Type.Union([HttpUrl, Type.Null()], { description: 'A file elsewhere' })),
    asset_id: Type.Optional(
      Type.Union([Id('ast'), Type.Null()], {
        description:
          'An upload of the purpose the type needs (video, audio, pdf; any for the rest); replaces asset_url',
      }),
    ),
    duration_s: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()])),
    is_preview: Type.Optional(Type.Boolean()),
    captions: Type.Optional(Type.Array(CaptionInput, { maxItems: MAX_CAPTIONS })),
    poster_asset_id: Type.Optional(Type.Union([Id('ast'), Type.Null()])),
    position: Type.Optional(Position('0-based; the end when absent')),
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
    position: Type.Optional(Position('0-based; the end when absent')),
  },
  { additionalProperties: false },
);
export type LessonMove = Static<typeof LessonMove>;

export const LessonReorder = Reorder('lesson_ids', 'les', MAX_LESSONS_PER_SECTION, 'Each once, in the new order');
export type LessonReorder = Static<typeof LessonReorder>;

export const SectionIdParams = IdParams('sec');
export const LessonIdParams = IdParams('les');
