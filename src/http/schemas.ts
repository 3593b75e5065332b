import Type, { type Static, type TSchema } from 'typebox';

/** An opaque prefixed id (`crs_…`). */
export const Id = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9a-z]{26}$`, description: `A ${prefix}_… id` });

/** An absolute http(s) URL (media until the storage area exists, legal pages, links). */
export const HttpUrl = Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' });

export const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 UTC timestamp' });

export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });

/** Money in integer minor units: { amount: 1999, currency: "EUR" } is €19.99. */
export const Money = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Integer minor units (cents)' }),
    currency: Currency,
  },
  { additionalProperties: false },
);
export type Money = Static<typeof Money>;

export const Slug = Type.String({ minLength: 1, maxLength: 120, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });

export const ListQueryBase = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100, default 20)' }),
  ),
  starting_after: Type.Optional(
    Type.String({ maxLength: 64, description: 'Cursor: the id of the last item of the previous page' }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('created_at'), Type.Literal('-created_at')], { default: '-created_at' }),
  ),
  created_after: Type.Optional(Timestamp),
  created_before: Type.Optional(Timestamp),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    /** How many items match in all, from the lists that count them (a course search); the others leave it out. */
    total: Type.Optional(Type.Integer()),
  });

export const ErrorResponse = Type.Object(
  {
    error: Type.String(),
    error_description: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'ErrorResponse', description: 'RFC 6749 §5.2 error' },
);

/** The error responses every protected operation can give, by status. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, { ...ErrorResponse, $id: undefined }]));

export const IdParams = (prefix: string) => Type.Object({ id: Id(prefix) }, { additionalProperties: false });
