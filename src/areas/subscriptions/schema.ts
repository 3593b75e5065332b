import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union(
  [
    Type.Literal('trialing'),
    Type.Literal('active'),
    Type.Literal('past_due'),
    Type.Literal('paused'),
    Type.Literal('canceled'),
  ],
  { description: 'trialing → active → past_due → canceled; active ⇄ paused' },
);

export const Subscription = Type.Object(
  {
    id: Id('sub'),
    user_id: Id('usr'),
    plan_id: Id('pln'),
    price_id: Id('pri'),
    status: Status,
    current_period_start: Timestamp,
    current_period_end: Type.Union([Timestamp, Type.Null()], {
      description: 'null for a one-time price: a membership for life that never renews',
    }),
    cancel_at_period_end: Type.Boolean({ description: 'It ends when the current period does' }),
    trial_end: Type.Union([Timestamp, Type.Null()]),
    canceled_at: Type.Union([Timestamp, Type.Null()]),
    paused_at: Type.Union([Timestamp, Type.Null()]),
    next_price_id: Type.Union([Id('pri'), Type.Null()], {
      description: 'A plan change waiting for the next period (changeSubscriptionPlan)',
    }),
    provider: Type.Union([Type.Literal('none'), Type.Literal('test'), Type.Literal('stripe')], {
      description:
        'Who runs its payments: stripe (its events are the truth), test (the built-in test provider), none (free)',
    }),
    order_id: Type.Union([Id('ord'), Type.Null()], { description: 'The order that started it' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Subscription' },
);
export type Subscription = Static<typeof Subscription>;

export const SubscriptionListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    plan_id: Type.Optional(Id('pln')),
    user_id: Type.Optional(Id('usr')),
  },
  { additionalProperties: false },
);
export type SubscriptionListQuery = Static<typeof SubscriptionListQuery>;

export const SubscriptionPage = Page(Subscription);

export const SubscriptionIdParams = Type.Object({ id: Id('sub') }, { additionalProperties: false });

export const SubscriptionCancel = Type.Object(
  {
    at_period_end: Type.Boolean({
      description:
        'true: it ends when the paid period does (resume undoes it until then); false: it ends now and access closes at once',
    }),
  },
  { additionalProperties: false },
);
export type SubscriptionCancel = Static<typeof SubscriptionCancel>;

export const SubscriptionPlanChange = Type.Object(
  {
    price_id: Id('pri'),
  },
  {
    additionalProperties: false,
    description:
      'The recurring price (of this plan or another) it renews on from the next period; its own price takes back a change not made yet',
  },
);
export type SubscriptionPlanChange = Static<typeof SubscriptionPlanChange>;
