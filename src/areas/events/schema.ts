import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Page, Slug, Timestamp } from '../../http/schemas.ts';

/**
 * The state an event is in. scheduled, live and ended follow the clock (starts_at, ends_at); canceled is the one
 * state set by an action (cancelEvent), from scheduled only.
 */
export const EventStatus = Type.Union(
  [Type.Literal('scheduled'), Type.Literal('live'), Type.Literal('ended'), Type.Literal('canceled')],
  { description: 'scheduled → live → ended by the clock; scheduled → canceled by cancelEvent' },
);
export type EventStatus = Static<typeof EventStatus>;

const Visibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted')], {
  description: 'public: listed on the site, in /llms.txt and the MCP catalog; unlisted: reachable by its link only',
});

export const RegistrationStatus = Type.Union(
  [Type.Literal('registered'), Type.Literal('waitlisted'), Type.Literal('canceled')],
  {
    description:
      'registered holds a seat; waitlisted waits in order for one (promoted once when a seat frees); canceled: unregistered, or the event was canceled',
  },
);
export type RegistrationStatus = Static<typeof RegistrationStatus>;

/** The caller's own place at an event, shown inside the event. */
export const OwnRegistration = Type.Object({
  id: Id('reg'),
  status: RegistrationStatus,
  waitlist_position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: '1 is next in line; null unless waitlisted',
  }),
  registered_at: Timestamp,
});
export type OwnRegistration = Static<typeof OwnRegistration>;

export const Event = Type.Object(
  {
    id: Id('evt'),
    title: Type.String(),
    slug: Type.String(),
    description: Type.String({ description: 'Markdown' }),
    starts_at: Timestamp,
    ends_at: Timestamp,
    timezone: Type.String({ description: 'The IANA time zone the event is held in (its times are shown in it)' }),
    address: Type.Union([Type.String(), Type.Null()], {
      description: 'Where it takes place in person; null if online only',
    }),
    online: Type.Boolean({ description: 'True when the event has a join URL (held online)' }),
    join_url: Type.Union([Type.String(), Type.Null()], {
      description:
        'The link to join: shown to staff always, to a registered person from join_opens_at until the end; null for everyone else',
    }),
    join_opens_at: Type.Union([Timestamp, Type.Null()], {
      description: 'From when registered people see join_url; null if the event is not online',
    }),
    capacity: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Seats; null means no limit' }),
    registered_count: Type.Integer({ minimum: 0 }),
    waitlisted_count: Type.Integer({ minimum: 0 }),
    seats_left: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null when there is no limit' }),
    lecturer_ids: Type.Array(Id('lec')),
    course_id: Type.Union([Id('crs'), Type.Null()], {
      description: "Only this course's students (active enrollment) may register",
    }),
    plan_id: Type.Union([Id('pln'), Type.Null()], {
      description: 'Only people who hold this membership plan may register',
    }),
    visibility: Visibility,
    status: EventStatus,
    registration: Type.Union([OwnRegistration, Type.Null()], {
      description: "The caller's own registration (not canceled); null for anonymous callers and people not registered",
    }),
    canceled_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Event' },
);
export type Event = Static<typeof Event>;

const Title = Type.String({ minLength: 1, maxLength: 200 });

const Writable = Type.Partial(
  Type.Object({
    title: Title,
    slug: Slug,
    description: Type.String({ maxLength: 50_000 }),
    starts_at: Timestamp,
    ends_at: Timestamp,
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone (default: the school’s)' }),
    address: Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()]),
    join_url: Type.Union([HttpUrl, Type.Null()]),
    join_opens_minutes: Type.Integer({
      minimum: 0,
      maximum: 10_080,
      description: 'How many minutes before the start registered people see the join URL (default 15)',
    }),
    capacity: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()]),
    lecturer_ids: Type.Array(Id('lec'), { maxItems: 20, uniqueItems: true }),
    course_id: Type.Union([Id('crs'), Type.Null()]),
    plan_id: Type.Union([Id('pln'), Type.Null()]),
    visibility: Visibility,
  }),
);

export const EventCreate = Type.Object(
  { ...Writable.properties, title: Title, starts_at: Timestamp, ends_at: Timestamp },
  { additionalProperties: false },
);
export type EventCreate = Static<typeof EventCreate>;

export const EventUpdate = Type.Object(Writable.properties, {
  additionalProperties: false,
  minProperties: 1,
  description: 'Moving starts_at or ends_at e-mails every registered and waitlisted person',
});
export type EventUpdate = Static<typeof EventUpdate>;

export const EventListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(EventStatus),
    when: Type.Optional(
      Type.Union([Type.Literal('upcoming'), Type.Literal('past')], {
        description: 'upcoming: not yet ended and not canceled, soonest first; past: ended, latest first',
      }),
    ),
    course_id: Type.Optional(Id('crs')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;

export const EventPage = Page(Event);

export const EventIdParams = Type.Object({ id: Id('evt') }, { additionalProperties: false });

export const Registration = Type.Object(
  {
    id: Id('reg'),
    event_id: Id('evt'),
    user_id: Id('usr'),
    email: Type.String(),
    name: Type.String(),
    status: RegistrationStatus,
    waitlist_position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    attended: Type.Union([Type.Boolean(), Type.Null()], { description: 'Recorded by staff; null until recorded' }),
    registered_at: Timestamp,
    promoted_at: Type.Union([Timestamp, Type.Null()], { description: 'When a waitlisted registration got its seat' }),
    canceled_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'EventRegistration' },
);
export type Registration = Static<typeof Registration>;

export const EventKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'An evt_… id or the event slug' }) },
  { additionalProperties: false },
);

export const RegistrationParams = Type.Object(
  { id: Id('evt'), registration_id: Id('reg') },
  { additionalProperties: false },
);

export const RegistrationListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(RegistrationStatus),
    attended: Type.Optional(Type.Boolean()),
    user_id: Type.Optional(Id('usr')),
  },
  { additionalProperties: false },
);
export type RegistrationListQuery = Static<typeof RegistrationListQuery>;

export const RegistrationPage = Page(Registration);

export const RegistrationCreate = Type.Object(
  { user_id: Id('usr') },
  {
    additionalProperties: false,
    description:
      'Staff register a person: the course or plan condition is not checked (staff decide), the seats are — a full event waitlists them',
  },
);
export type RegistrationCreate = Static<typeof RegistrationCreate>;

const AttendanceRecord = Type.Object(
  {
    registration_id: Type.Optional(Id('reg')),
    user_id: Type.Optional(Id('usr')),
    attended: Type.Boolean(),
  },
  { additionalProperties: false, description: 'Names the registration by registration_id or by user_id (one of them)' },
);

export const AttendanceInput = Type.Object(
  { records: Type.Array(AttendanceRecord, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);
export type AttendanceInput = Static<typeof AttendanceInput>;

export const AttendanceResult = Type.Object({
  data: Type.Array(Registration, { description: 'The registrations as recorded, in the order given' }),
});
