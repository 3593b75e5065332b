import Type, { type Static } from 'typebox';
import { Currency, Id, ListQueryBase, Page, Slug, Timestamp } from '../../http/schemas.ts';

/** Most prices one plan keeps (archived ones count: they stay as the record of what was sold). */
export const MAX_PRICES_PER_PLAN = 100;
/** Most courses or products one plan includes. */
export const MAX_INCLUDED = 200;

const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')], {
  description: 'archived: no longer sold (and hidden from everyone but staff); its subscriptions go on',
});
const Visibility = Type.Union([Type.Literal('public'), Type.Literal('hidden')], {
  description: 'public: listed to everyone; hidden: not listed, but anyone with its link (id or slug) can buy it',
});
const Interval = Type.Union([Type.Literal('month'), Type.Literal('year'), Type.Literal('one_time')], {
  description: 'month / year: a subscription renewed every period; one_time: a membership for life, paid once',
});
const PriceStatus = Type.Union([Type.Literal('active'), Type.Literal('archived')], {
  description: 'archived: no longer sold; subscriptions already on it go on',
});

export const Price = Type.Object(
  {
    id: Id('pri'),
    plan_id: Id('pln'),
    amount: Type.Integer({ minimum: 0, description: 'Integer minor units (cents) per interval' }),
    currency: Currency,
    interval: Interval,
    trial_days: Type.Integer({ minimum: 0, maximum: 365 }),
    status: PriceStatus,
    created_at: Timestamp,
    archived_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'PlanPrice' },
);
export type Price = Static<typeof Price>;

export const Plan = Type.Object(
  {
    id: Id('pln'),
    name: Type.String(),
    slug: Type.String(),
    description: Type.String(),
    benefits: Type.Array(Type.String()),
    course_ids: Type.Array(Id('crs'), { description: 'The courses picked for the plan, in the order given' }),
    includes_all_courses: Type.Boolean({
      description:
        'Every published course (public or unlisted), present and to come, is included as a rule, besides those picked',
    }),
    included_course_ids: Type.Array(Id('crs'), {
      description:
        'Every course a holder of the plan studies now: those picked, then (with includes_all_courses) every other published course',
    }),
    product_ids: Type.Array(Id('prd'), { description: 'Digital products a holder of the plan may download' }),
    visibility: Visibility,
    status: Status,
    prices: Type.Array(Price, { description: 'Its prices: the active ones, and for staff the archived ones too' }),
    archived_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'MembershipPlan' },
);
export type Plan = Static<typeof Plan>;

const Name = Type.String({ minLength: 1, maxLength: 120 });

const Writable = Type.Partial(
  Type.Object({
    name: Name,
    slug: Slug,
    description: Type.String({ maxLength: 20_000 }),
    benefits: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 30,
      description: 'Short lines the plan page lists ("Every course", "Monthly live Q&A")',
    }),
    course_ids: Type.Array(Id('crs'), {
      maxItems: MAX_INCLUDED,
      uniqueItems: true,
      description: 'The courses picked for the plan',
    }),
    includes_all_courses: Type.Boolean({
      description: 'Include every published course, present and to come: new courses join the plan as they come out',
    }),
    product_ids: Type.Array(Id('prd'), { maxItems: MAX_INCLUDED, uniqueItems: true }),
    visibility: Visibility,
  }),
);

export const PlanCreate = Type.Object(
  { ...Writable.properties, name: Name },
  { additionalProperties: false, description: 'A new plan is active; give it prices to sell it' },
);
export type PlanCreate = Static<typeof PlanCreate>;

export const PlanUpdate = Type.Object(Writable.properties, { additionalProperties: false, minProperties: 1 });
export type PlanUpdate = Static<typeof PlanUpdate>;

export const PlanListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    visibility: Type.Optional(Visibility),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name' })),
  },
  { additionalProperties: false },
);
export type PlanListQuery = Static<typeof PlanListQuery>;

export const PlanPage = Page(Plan);

export const PriceCreate = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Integer minor units (cents); 0 is free' }),
    currency: Currency,
    interval: Interval,
    trial_days: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 365, default: 0, description: 'Free days before the first charge' }),
    ),
  },
  { additionalProperties: false, description: 'Prices are never edited: archive one and create another' },
);
export type PriceCreate = Static<typeof PriceCreate>;

export const PriceListQuery = Type.Object(
  { status: Type.Optional(PriceStatus) },
  {
    additionalProperties: false,
    description: `A plan's prices, oldest first, all in one page (a plan keeps at most ${MAX_PRICES_PER_PLAN})`,
  },
);
export type PriceListQuery = Static<typeof PriceListQuery>;

export const PricePage = Page(Price);

export const PlanKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'A pln_… id or the plan slug' }) },
  { additionalProperties: false },
);
export const PlanIdParams = Type.Object({ id: Id('pln') }, { additionalProperties: false });
export const PlanPriceParams = Type.Object({ id: Id('pln'), price_id: Id('pri') }, { additionalProperties: false });
