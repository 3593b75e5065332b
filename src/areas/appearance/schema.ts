import Type, { type Static } from 'typebox';
import { HttpUrl, Id, Timestamp } from '../../http/schemas.ts';

/** Fonts every browser has, so school pages never fetch fonts from a third party. */
const FONTS = [
  'system-ui',
  'sans-serif',
  'serif',
  'monospace',
  'Georgia',
  'Helvetica',
  'Verdana',
  'Times New Roman',
] as const;

const NAVIGATION_MAX_ITEMS = 20;
const CUSTOM_CSS_MAX_LENGTH = 20_000;

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'A colour as #rrggbb' });
const Font = Type.Enum(FONTS);

const colorFields = { primary: Color, accent: Color, background: Color, text: Color };
const fontFields = { heading: Font, body: Font };

const NavigationItem = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 40 }),
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'A path here ("/courses") or an https:// URL',
    }),
  },
  { additionalProperties: false },
);

export const Appearance = Type.Object(
  {
    logo_url: Type.Union([Type.String(), Type.Null()], {
      description: 'The logo: the URL of logo_asset_id when that is set, else the URL given',
    }),
    logo_asset_id: Type.Union([Type.String(), Type.Null()], { description: 'An uploaded image (purpose image)' }),
    colors: Type.Object(colorFields),
    fonts: Type.Object(fontFields),
    navigation: Type.Array(NavigationItem, { description: 'The menu; empty: the default' }),
    footer: Type.Array(NavigationItem, { description: 'Footer links; empty: the default' }),
    custom_css: Type.String(),
    updated_at: Type.Union([Timestamp, Type.Null()], { description: 'null while the defaults are in use' }),
  },
  { $id: 'Appearance' },
);
export type Appearance = Static<typeof Appearance>;

export const AppearanceUpdate = Type.Object(
  {
    logo_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    logo_asset_id: Type.Optional(
      Type.Union([Id('ast'), Type.Null()], {
        description: 'A ready image asset (see createAsset); shown in place of logo_url',
      }),
    ),
    colors: Type.Optional(
      Type.Partial(Type.Object(colorFields), {
        additionalProperties: false,
        minProperties: 1,
        description: 'Only the colours given change',
      }),
    ),
    fonts: Type.Optional(
      Type.Partial(Type.Object(fontFields), {
        additionalProperties: false,
        minProperties: 1,
        description: 'Only the fonts given change',
      }),
    ),
    navigation: Type.Optional(
      Type.Array(NavigationItem, {
        maxItems: NAVIGATION_MAX_ITEMS,
        description: 'Replaces the menu; empty: the default',
      }),
    ),
    footer: Type.Optional(
      Type.Array(NavigationItem, {
        maxItems: NAVIGATION_MAX_ITEMS,
        description: 'Replaces the footer; empty: the default',
      }),
    ),
    custom_css: Type.Optional(
      Type.String({
        maxLength: CUSTOM_CSS_MAX_LENGTH,
        description: 'CSS added to every page; "</style" and "@import" are refused',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AppearanceUpdate = Static<typeof AppearanceUpdate>;
