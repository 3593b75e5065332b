import type { AppearanceTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { AreaDeps } from '../deps.ts';
import type { References } from '../references.ts';
import type { StorageService } from '../storage/service.ts';
import type { Appearance, AppearanceUpdate } from './schema.ts';
import type { AppearanceStore } from './store.ts';
import { DEFAULT_THEME, THEME_LOOKS, type ThemeName } from './themes.ts';

/** The home page until the owner changes it: the school's name and description, a way to the catalog, four parts. */
const DEFAULT_HOME: Appearance['home'] = {
  headline: '',
  text: '',
  call_to_action: { label: 'Browse the courses', url: '/courses' },
  sections: ['featured_courses', 'lecturers', 'events', 'posts'],
  featured_course_ids: [],
};

/** What a school looks like until staff change it: the default theme's colours and fonts. */
const DEFAULT_APPEARANCE: Appearance = {
  logo_url: null,
  logo_asset_id: null,
  ...THEME_LOOKS[DEFAULT_THEME],
  navigation: [],
  footer: [],
  custom_css: '',
  theme: DEFAULT_THEME,
  home: DEFAULT_HOME,
  updated_at: null,
};

function toAppearance(row: Omit<AppearanceTable, 'id'>, mediaUrl: (assetId: string) => string): Appearance {
  return {
    logo_url: row.logo_asset_id ? mediaUrl(row.logo_asset_id) : row.logo_url,
    logo_asset_id: row.logo_asset_id ?? null,
    colors: JSON.parse(row.colors) as Appearance['colors'],
    fonts: JSON.parse(row.fonts) as Appearance['fonts'],
    navigation: JSON.parse(row.navigation) as Appearance['navigation'],
    footer: JSON.parse(row.footer) as Appearance['footer'],
    custom_css: row.custom_css,
    theme: (row.theme ?? DEFAULT_THEME) as ThemeName,
    // Keys added to the home settings later read as their defaults in a record stored before them.
    home: { ...DEFAULT_HOME, ...(JSON.parse(row.home ?? '{}') as Partial<Appearance['home']>) },
    updated_at: row.updated_at,
  };
}

/** Decodes CSS escapes ("\69" is "i"), which the CSS parser applies inside at-rule names. */
function decodeCssEscapes(css: string): string {
  return css
    .replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?/g, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
    })
    .replace(/\\(.)/gs, '$1');
}

function checkCustomCss(css: string) {
  // The CSS is placed inside a <style> element: "</style" would end it and let the rest be read as HTML.
  if (/<\/style/i.test(css)) {
    throw errors.invalidRequest('custom_css must not contain "</style"; remove it.', [
      { field: 'custom_css', code: 'forbidden', message: 'Remove "</style".' },
    ]);
  }
  // @import would load a stylesheet from elsewhere on every page; an escaped spelling ("@\69mport") counts too.
  if (/@import/i.test(decodeCssEscapes(css))) {
    throw errors.invalidRequest(
      'custom_css must not use @import; paste the rules of the imported stylesheet into custom_css instead.',
      [{ field: 'custom_css', code: 'forbidden', message: 'Remove @import.' }],
    );
  }
}

function lowerCased(colors: AppearanceUpdate['colors']) {
  return Object.fromEntries(Object.entries(colors ?? {}).map(([key, value]) => [key, value.toLowerCase()]));
}

/** A path on this site ("/courses", but not "//host" or "/\host", which browsers treat as another site) or https. */
function isNavigationUrl(url: string): boolean {
  if (/[\s\\\p{Cc}]/u.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  if (!url.startsWith('https://') || !URL.canParse(url)) return false;
  return new URL(url).hostname !== '';
}

/** The menu's or the footer's links (`field`), each with a label and a link the site may point to. */
function checkLinks(field: 'navigation' | 'footer', items: Appearance['navigation']): Appearance['navigation'] {
  const what = field === 'navigation' ? 'menu item' : 'footer link';
  return items.map((item, index) => {
    const label = item.label.trim();
    if (!label) {
      throw errors.invalidRequest(`${field}[${index}].label must not be blank; give the ${what} a label.`, [
        { field: `${field}.${index}.label`, code: 'blank', message: `Give the ${what} a label.` },
      ]);
    }
    if (!isNavigationUrl(item.url)) {
      throw errors.invalidRequest(
        `${field}[${index}].url must be a path on this site starting with "/" (e.g. /courses) or an https:// URL.`,
        [{ field: `${field}.${index}.url`, code: 'format', message: 'Use a path like /courses or an https:// URL.' }],
      );
    }
    return { label, url: item.url };
  });
}

/** The home page's button: a label and a link the site may point to, as a menu item's. */
function checkCallToAction(item: Appearance['home']['call_to_action']) {
  const label = item.label.trim();
  if (!label) {
    throw errors.invalidRequest('home.call_to_action.label must not be blank; give the button a label.', [
      { field: 'home.call_to_action.label', code: 'blank', message: 'Give the button a label.' },
    ]);
  }
  if (!isNavigationUrl(item.url)) {
    throw errors.invalidRequest(
      'home.call_to_action.url must be a path on this site starting with "/" (e.g. /courses) or an https:// URL.',
      [{ field: 'home.call_to_action.url', code: 'format', message: 'Use a path like /courses or an https:// URL.' }],
    );
  }
  return { label, url: item.url };
}

/**
 * The school's look: theme, logo, colours, fonts, navigation menu, footer links, custom CSS and what the home page
 * shows. It is public (every page shows it). Until staff change something the defaults apply and nothing is stored;
 * the first change stores the whole record. Colours, fonts and the home settings change key by key; the navigation
 * and the footer are each replaced as a whole.
 */
export function appearanceService(
  deps: AreaDeps & {
    store: AppearanceStore;
    storage: StorageService;
    /** The featured courses are checked with the courses area. */
    references: References;
  },
) {
  const { db, clock, store, storage } = deps;

  async function checkHome(home: NonNullable<AppearanceUpdate['home']>) {
    const ids = home.featured_course_ids ?? [];
    const found = await deps.references.existing(db, 'course', ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw errors.invalidRequest(`Unknown course ${missing.join(', ')}; feature courses that exist.`, [
        { field: 'home.featured_course_ids', code: 'not_found', message: `Unknown course ${missing.join(', ')}` },
      ]);
    }
    return {
      ...home,
      ...(home.headline === undefined ? {} : { headline: home.headline.trim() }),
      ...(home.text === undefined ? {} : { text: home.text.trim() }),
      ...(home.call_to_action ? { call_to_action: checkCallToAction(home.call_to_action) } : {}),
    };
  }

  const current = async () => {
    const row = await store.get(db);
    return row ? toAppearance(row, storage.publicUrl) : DEFAULT_APPEARANCE;
  };

  return {
    get: current,

    async update(input: AppearanceUpdate) {
      if (input.custom_css !== undefined) checkCustomCss(input.custom_css);
      if (input.logo_asset_id) await storage.requireReady('logo_asset_id', input.logo_asset_id, ['image']);
      const navigation = input.navigation === undefined ? undefined : checkLinks('navigation', input.navigation);
      const footer = input.footer === undefined ? undefined : checkLinks('footer', input.footer);
      const home = input.home === undefined ? undefined : await checkHome(input.home);
      const stored = await store.get(db);
      const base = stored ? toAppearance(stored, storage.publicUrl) : DEFAULT_APPEARANCE;
      // Choosing a theme takes its colours and fonts; any given beside it are the owner's changes on top.
      const look = input.theme ? THEME_LOOKS[input.theme] : base;
      const row = {
        // The URL as given is kept apart from the asset, which only covers it while set.
        logo_url: input.logo_url === undefined ? (stored?.logo_url ?? null) : input.logo_url,
        logo_asset_id: input.logo_asset_id === undefined ? (stored?.logo_asset_id ?? null) : input.logo_asset_id,
        colors: JSON.stringify({ ...look.colors, ...lowerCased(input.colors) }),
        fonts: JSON.stringify({ ...look.fonts, ...input.fonts }),
        navigation: JSON.stringify(navigation ?? base.navigation),
        footer: JSON.stringify(footer ?? base.footer),
        custom_css: input.custom_css ?? base.custom_css,
        theme: input.theme ?? base.theme,
        home: JSON.stringify({ ...base.home, ...home }),
        updated_at: clock.now().toISOString(),
      };
      await store.upsert(db, row);
      return toAppearance(row, storage.publicUrl);
    },
  };
}

export type AppearanceService = ReturnType<typeof appearanceService>;
