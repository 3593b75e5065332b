import Type, { type Static } from 'typebox';
import { HttpUrl, Id, Timestamp } from '../../http/schemas.ts';
import { FONTS } from './fonts.ts';
import { THEMES } from './themes.ts';

/** The parts of the home page below its hero, which the owner orders and leaves out. */
export const HOME_SECTIONS = ['featured_courses', 'new_courses', 'lecturers', 'events', 'posts'] as const;

const NAVIGATION_MAX_ITEMS = 20;
const CUSTOM_CSS_MAX_LENGTH = 20_000;

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' });
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

const homeFields = {
  headline: Type.String({ maxLength: 120 }),
  text: Type.String({ maxLength: 400 }),
  call_to_action: NavigationItem,
  sections: Type.Array(Type.Enum(HOME_SECTIONS), { uniqueItems: true }),
  featured_course_ids: Type.Array(Id('crs'), { maxItems: 12, uniqueItems: true }),
};

/**
 * The colours, fonts and home settings: one schema each for the answer (where every key is present) and the update
 * (which names only the keys to change), so that the OpenAPI document writes each once.
 */
const Colors = Type.Partial(Type.Object(colorFields), { additionalProperties: false, minProperties: 1 });
const Fonts = Type.Partial(Type.Object(fontFields), { additionalProperties: false, minProperties: 1 });
const Home = Type.Partial(Type.Object(homeFields), { additionalProperties: false, minProperties: 1 });

export const Appearance = Type.Object(
  {
    logo_url: Type.Union([Type.String(), Type.Null()], {
      description: "logo_asset_id's URL when set, else the one given",
    }),
    logo_asset_id: Type.Union([Type.String(), Type.Null()], { description: 'An uploaded image (purpose image)' }),
    colors: Colors,
    fonts: Fonts,
    navigation: Type.Array(NavigationItem, { description: 'The menu; empty: the default' }),
    footer: Type.Array(NavigationItem, { description: 'Footer links; empty: the default' }),
    custom_css: Type.String(),
    theme: Type.Enum(THEMES),
    home: Home,
    updated_at: Type.Union([Timestamp, Type.Null()], { description: 'null while the defaults are in use' }),
  },
  { $id: 'Appearance' },
);
export type Appearance = Omit<Static<typeof Appearance>, 'colors' | 'fonts' | 'home'> & {
  colors: Required<Static<typeof Colors>>;
  fonts: Required<Static<typeof Fonts>>;
  home: Required<Static<typeof Home>>;
};

export const AppearanceUpdate = Type.Object(
  {
    logo_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    logo_asset_id: Type.Optional(
      Type.Union([Id('ast'), Type.Null()], {
        description: 'A ready image; shown over logo_url',
      }),
    ),
    colors: Type.Optional(Colors),
    fonts: Type.Optional(Fonts),
    navigation: Type.Optional(
      Type.Array(NavigationItem, {
        maxItems: NAVIGATION_MAX_ITEMS,
      }),
    ),
    footer: Type.Optional(
      Type.Array(NavigationItem, {
        maxItems: NAVIGATION_MAX_ITEMS,
      }),
    ),
    custom_css: Type.Optional(
      Type.String({
        maxLength: CUSTOM_CSS_MAX_LENGTH,
        description: 'Added to every page; no "</style" or "@import"',
      }),
    ),
    theme: Type.Optional(Type.Enum(THEMES)),
    home: Type.Optional(Home),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AppearanceUpdate = Static<typeof AppearanceUpdate>;
