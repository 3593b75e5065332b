import Type, { type Static } from 'typebox';
import { Currency, Id, ListQueryBase, Money, Page, Timestamp } from '../../http/schemas.ts';

export const OrderStatus = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('paid'),
    Type.Literal('failed'),
    Type.Literal('canceled'),
    Type.Literal('refunded'),
    Type.Literal('partially_refunded'),
  ],
  {
    description:
      'pending: waiting for the payment; paid; failed: the payment was declined; canceled: abandoned (the checkout expired); refunded / partially_refunded',
  },
);
export type OrderStatus = Static<typeof OrderStatus>;

const ItemType = Type.Union([Type.Literal('course'), Type.Literal('plan'), Type.Literal('product')]);

export const OrderItem = Type.Object({
  item_type: ItemType,
  item_id: Type.String({ description: 'The course (crs_…), membership plan (pln_…) or digital product (prd_…)' }),
  price_id: Type.Union([Id('pri'), Type.Null()], { description: 'The plan price bought (plans only)' }),
  title: Type.String({ description: 'As it was when bought' }),
  unit_price: Money,
  discount: Money,
  amount: Money,
});

export const Order = Type.Object(
  {
    id: Id('ord'),
    number: Type.Integer({ description: 'Sequential order number' }),
    user_id: Id('usr'),
    customer: Type.Object({ email: Type.String(), name: Type.String() }),
    kind: Type.Union([Type.Literal('purchase'), Type.Literal('renewal')], {
      description: "purchase: a checkout; renewal: a subscription's charge for a new period",
    }),
    status: OrderStatus,
    items: Type.Array(OrderItem),
    subtotal: Money,
    discount: Money,
    total: Money,
    refunded_amount: Money,
    coupon_id: Type.Union([Id('cpn'), Type.Null()]),
    coupon_code: Type.Union([Type.String(), Type.Null()]),
    subscription_id: Type.Union([Id('sub'), Type.Null()]),
    provider: Type.Union([Type.Literal('none'), Type.Literal('test'), Type.Literal('stripe')], {
      description: 'Who took the payment; none for a free order',
    }),
    failure_reason: Type.Union([Type.String(), Type.Null()]),
    paid_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Order' },
);
export type Order = Static<typeof Order>;

export const OrderListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(OrderStatus),
    kind: Type.Optional(Type.Union([Type.Literal('purchase'), Type.Literal('renewal')])),
    user_id: Type.Optional(Id('usr')),
    item_id: Type.Optional(
      Type.String({
        pattern: '^(crs|pln|prd)_[0-9a-z]{26}$',
        description: 'Orders that bought this course, plan or product',
      }),
    ),
    coupon_id: Type.Optional(Id('cpn')),
    currency: Type.Optional(Currency),
  },
  { additionalProperties: false },
);
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderPage = Page(Order);

export const OrderIdParams = Type.Object({ id: Id('ord') }, { additionalProperties: false });

export const OrderPayments = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.Union([Type.Literal('charge'), Type.Literal('refund')]),
      amount: Money,
      provider: Type.String(),
      provider_ref: Type.Union([Type.String(), Type.Null()], {
        description: "The provider's reference of the movement",
      }),
      created_at: Timestamp,
    }),
    { description: 'Charges and refunds, oldest first' },
  ),
});

export const RefundRequest = Type.Object(
  {
    amount: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Minor units to give back; absent: everything not yet refunded' }),
    ),
  },
  { additionalProperties: false },
);
export type RefundRequest = Static<typeof RefundRequest>;

/** What a checkout buys: one course, one plan price or one product, named by id or slug (a price by its id). */
export const CheckoutItem = Type.Object(
  {
    type: ItemType,
    key: Type.String({ minLength: 1, maxLength: 120, description: 'Course or product id or slug; plan price id' }),
  },
  { additionalProperties: false },
);
export type CheckoutItem = Static<typeof CheckoutItem>;

export const CheckoutStart = Type.Object(
  {
    item: CheckoutItem,
    coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'A coupon code to apply' })),
  },
  { additionalProperties: false },
);
export type CheckoutStart = Static<typeof CheckoutStart>;

export const CheckoutQuoteQuery = Type.Object(
  {
    type: CheckoutItem.properties.type,
    key: CheckoutItem.properties.key,
    coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type CheckoutQuoteQuery = Static<typeof CheckoutQuoteQuery>;

export const CheckoutQuote = Type.Object(
  {
    item: Type.Object({
      type: CheckoutItem.properties.type,
      id: Type.String(),
      price_id: Type.Union([Id('pri'), Type.Null()]),
      title: Type.String(),
      slug: Type.String({
        description: "The item's slug: its public page is /courses/<slug>, /plans/<slug> or /products/<slug>",
      }),
    }),
    unit_price: Money,
    due_now: Money,
    discount: Money,
    total: Money,
    trial_days: Type.Integer(),
    interval: Type.Union([Type.Literal('month'), Type.Literal('year'), Type.Null()], {
      description: 'How often a plan price renews; null for a one-time purchase',
    }),
    coupon_code: Type.Union([Type.String(), Type.Null()]),
    needs_payment: Type.Boolean({ description: "Whether the buyer goes to the payment provider's page" }),
    payments_enabled: Type.Boolean({ description: 'Whether this school takes payments (a provider is configured)' }),
    already_held: Type.Boolean({ description: 'You already hold this item' }),
  },
  { $id: 'CheckoutQuote' },
);
export type CheckoutQuote = Static<typeof CheckoutQuote>;

export const CheckoutStarted = Type.Object(
  {
    order: Order,
    payment_url: Type.Union([Type.String(), Type.Null()], {
      description: "Where the buyer pays (the provider's page); null when the order was paid at once (nothing due)",
    }),
  },
  { $id: 'CheckoutStarted' },
);
