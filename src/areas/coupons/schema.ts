import Type, { type Static } from 'typebox';
import { Currency, Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

/** Most codes one bulk create makes. */
export const MAX_BULK_COUPONS = 1000;
/** The random part of a bulk-created code: `PREFIX-` and this many characters. */
export const BULK_CODE_LENGTH = 8;
const MAX_CODE = 40;

const State = Type.Union(
  [
    Type.Literal('scheduled'),
    Type.Literal('active'),
    Type.Literal('expired'),
    Type.Literal('exhausted'),
    Type.Literal('disabled'),
  ],
  {
    description:
      'Derived, first that holds: disabled (disabled_at set), expired (expires_at passed), exhausted (times_redeemed reached max_redemptions), scheduled (starts_at in the future), else active',
  },
);

/** Letters, digits, `_` and `-`, starting with a letter or digit (a spreadsheet opening the CSV export reads a leading `-` as a formula). */
const Code = Type.String({
  minLength: 3,
  maxLength: MAX_CODE,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
  description: 'Stored upper case and matched without regard to case; unique',
});

const PercentOff = Type.Integer({ minimum: 1, maximum: 100, description: 'Percent off each line it applies to' });

const AmountOff = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Integer minor units (cents)' }),
    currency: Currency,
  },
  {
    additionalProperties: false,
    description:
      'Off the order, once: taken from the lines it applies to in its currency, in order, never more than a line',
  },
);

const AllItems = Type.Object(
  { all: Type.Literal(true) },
  { additionalProperties: false, description: 'Every course, plan and product' },
);
const IdList = (prefix: string) => Type.Array(Id(prefix), { maxItems: 100, uniqueItems: true });
const SomeItems = Type.Object(
  { course_ids: IdList('crs'), plan_ids: IdList('pln'), product_ids: IdList('prd') },
  { additionalProperties: false, description: 'Only these courses, plans and digital products' },
);
const SomeItemsInput = Type.Object(Type.Partial(SomeItems).properties, {
  additionalProperties: false,
  minProperties: 1,
  description: 'Only these courses, plans and digital products (each must exist; absent lists are empty)',
});

export const Coupon = Type.Object(
  {
    id: Id('cpn'),
    code: Type.String(),
    percent_off: Type.Union([PercentOff, Type.Null()]),
    amount_off: Type.Union([AmountOff, Type.Null()]),
    applies_to: Type.Union([AllItems, SomeItems]),
    starts_at: Type.Union([Timestamp, Type.Null()]),
    expires_at: Type.Union([Timestamp, Type.Null()]),
    max_redemptions: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
    times_redeemed: Type.Integer({
      description:
        'Redemptions held by pending orders and taken by paid ones; a failed or canceled order gives its one back',
    }),
    state: State,
    disabled_at: Type.Union([Timestamp, Type.Null()]),
    batch: Type.Union([Type.String(), Type.Null()], { description: 'The prefix of a bulk-created batch' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Coupon' },
);
export type Coupon = Static<typeof Coupon>;
export type CouponState = Static<typeof State>;

/** The terms shared by a coupon and a batch: what it takes off, on what, when, how often. */
const Terms = {
  percent_off: Type.Union([PercentOff, Type.Null()]),
  amount_off: Type.Union([AmountOff, Type.Null()]),
  applies_to: Type.Union([AllItems, SomeItemsInput]),
  starts_at: Type.Union([Timestamp, Type.Null()]),
  expires_at: Type.Union([Timestamp, Type.Null()]),
  max_redemptions: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000_000 }), Type.Null()]),
};

const Writable = Type.Partial(Type.Object({ code: Code, ...Terms }));

export const CouponCreate = Type.Object(
  { ...Writable.properties, code: Code },
  {
    additionalProperties: false,
    description: 'Exactly one of percent_off and amount_off; applies_to defaults to {"all": true}',
  },
);
export type CouponCreate = Static<typeof CouponCreate>;

export const CouponUpdate = Type.Object(Writable.properties, {
  additionalProperties: false,
  minProperties: 1,
  description: 'code, percent_off and amount_off are frozen once the coupon has been redeemed (409)',
});
export type CouponUpdate = Static<typeof CouponUpdate>;

export const CouponBulkCreate = Type.Object(
  {
    prefix: Type.String({
      minLength: 1,
      maxLength: MAX_CODE - BULK_CODE_LENGTH - 1,
      pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
      description: 'The codes are PREFIX-XXXXXXXX; the prefix (upper case) is also the batch name',
    }),
    count: Type.Integer({ minimum: 1, maximum: MAX_BULK_COUPONS }),
    ...Type.Partial(Type.Object(Terms)).properties,
  },
  {
    additionalProperties: false,
    description: 'Exactly one of percent_off and amount_off; max_redemptions defaults to 1 (one use per code)',
  },
);
export type CouponBulkCreate = Static<typeof CouponBulkCreate>;

export const CouponBatch = Type.Object(
  {
    batch: Type.String(),
    count: Type.Integer(),
    codes: Type.Array(Type.String(), { description: 'The codes made, in no particular order' }),
  },
  { $id: 'CouponBatch' },
);
export type CouponBatch = Static<typeof CouponBatch>;

export const CouponListQuery = Type.Object(
  {
    ...ListQueryBase,
    state: Type.Optional(State),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_CODE, description: 'Codes starting with this (any case)' }),
    ),
    batch: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_CODE, description: 'A bulk-created batch' })),
  },
  { additionalProperties: false },
);
export type CouponListQuery = Static<typeof CouponListQuery>;

export const CouponPage = Page(Coupon);

export const CouponIdParams = Type.Object({ id: Id('cpn') }, { additionalProperties: false });

/** What the checkout asks a coupon about: the order's lines, each in integer minor units of its currency. */
export type CouponLine = {
  item_type: 'course' | 'plan' | 'product';
  item_id: string;
  amount: number;
  currency: string;
};

/** What a coupon takes off an order: one discount per line, in the line's minor units. */
export type CouponDiscount = { coupon: { id: string; code: string }; discounts: number[] };
