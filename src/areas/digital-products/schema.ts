import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Money, Page, Slug, Timestamp } from '../../http/schemas.ts';

/** Most files one product carries. */
export const MAX_PRODUCT_FILES = 50;

/**
 * The asset purposes a product's files may be: those served only through signed URLs. An image is public at its
 * address forever, so selling one would give it away.
 */
export const FILE_PURPOSES = ['download', 'pdf', 'video', 'audio'] as const;

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')], {
  description:
    'draft → published → archived (an archived product can be published again); holders keep downloading an archived product',
});

export const ProductFile = Type.Object({
  asset_id: Id('ast'),
  filename: Type.String(),
  content_type: Type.String(),
  byte_size: Type.Integer(),
});
export type ProductFile = Static<typeof ProductFile>;

export const DigitalProduct = Type.Object(
  {
    id: Id('prd'),
    title: Type.String(),
    slug: Type.String(),
    description: Type.String(),
    price: Type.Union([Money, Type.Null()], { description: 'null means free' }),
    image_url: Type.Union([Type.String(), Type.Null()]),
    files: Type.Array(ProductFile, {
      description: 'In order, by name and size; the files themselves are reached through the downloads operation',
    }),
    status: Status,
    published_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'DigitalProduct' },
);
export type DigitalProduct = Static<typeof DigitalProduct>;

const Title = Type.String({ minLength: 1, maxLength: 200 });

const Writable = Type.Partial(
  Type.Object({
    title: Title,
    slug: Slug,
    description: Type.String({ maxLength: 50_000 }),
    price: Type.Union([Money, Type.Null()]),
    image_url: Type.Union([HttpUrl, Type.Null()]),
    asset_ids: Type.Array(Id('ast'), {
      maxItems: MAX_PRODUCT_FILES,
      uniqueItems: true,
      description: `Its files in order: ready uploads of purpose ${FILE_PURPOSES.join(', ')} (images are public)`,
    }),
  }),
);

export const DigitalProductCreate = Type.Object(
  { ...Writable.properties, title: Title },
  { additionalProperties: false },
);
export type DigitalProductCreate = Static<typeof DigitalProductCreate>;

export const DigitalProductUpdate = Type.Object(Writable.properties, {
  additionalProperties: false,
  minProperties: 1,
  description: 'asset_ids replaces the whole list of files',
});
export type DigitalProductUpdate = Static<typeof DigitalProductUpdate>;

export const DigitalProductListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
    price: Type.Optional(
      Type.Union([Type.Literal('free'), Type.Literal('paid')], { description: 'free: no price; paid: has a price' }),
    ),
    held: Type.Optional(
      Type.Boolean({ description: 'true: only the products the caller holds (a grant, or a plan that includes it)' }),
    ),
  },
  { additionalProperties: false },
);
export type DigitalProductListQuery = Static<typeof DigitalProductListQuery>;

export const DigitalProductPage = Page(DigitalProduct);

export const ProductKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'A prd_… id or the product slug' }) },
  { additionalProperties: false },
);
export const ProductIdParams = Type.Object({ id: Id('prd') }, { additionalProperties: false });

const GrantStatus = Type.Union([Type.Literal('active'), Type.Literal('revoked')]);

export const ProductGrant = Type.Object(
  {
    id: Id('pgr'),
    product_id: Id('prd'),
    user_id: Id('usr'),
    source: Type.Union([Type.Literal('manual'), Type.Literal('order')], {
      description: 'manual: granted by staff; order: bought',
    }),
    order_id: Type.Union([Id('ord'), Type.Null()]),
    status: GrantStatus,
    granted_at: Timestamp,
    revoked_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'ProductGrant' },
);
export type ProductGrant = Static<typeof ProductGrant>;

export const ProductGrantCreate = Type.Object({ user_id: Id('usr') }, { additionalProperties: false });
export type ProductGrantCreate = Static<typeof ProductGrantCreate>;

export const ProductGrantListQuery = Type.Object(
  { ...ListQueryBase, status: Type.Optional(GrantStatus), user_id: Type.Optional(Id('usr')) },
  { additionalProperties: false },
);
export type ProductGrantListQuery = Static<typeof ProductGrantListQuery>;

export const ProductGrantPage = Page(ProductGrant);

export const ProductGrantParams = Type.Object({ id: Id('prd'), user_id: Id('usr') }, { additionalProperties: false });

export const ProductDownloads = Type.Object(
  {
    product_id: Id('prd'),
    files: Type.Array(
      Type.Object({
        ...ProductFile.properties,
        url: Type.String({ description: 'A signed link to the file; it works for anyone holding it until expires_at' }),
        expires_at: Timestamp,
      }),
    ),
  },
  { $id: 'ProductDownloads' },
);
export type ProductDownloads = Static<typeof ProductDownloads>;
