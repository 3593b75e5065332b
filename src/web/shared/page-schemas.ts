import Type, { type TProperties } from 'typebox';

/**
 * The schemas every page route declares, so the type provider types `request.query`, `params` and `body` and
 * Fastify validates them before the handler runs, as it does for the API. A page's refusal is still a page: a route
 * with `config.page` answers a validation failure with the HTML error page (http/error-handler.ts), and a form that
 * shows its problems beside the fields asks for `attachValidation` and reads them with `formProblems` (forms.ts).
 */

/**
 * A page's query string: the parameters it reads, typed; any other is let through, so a link with tracking
 * parameters (`?utm_source=…`) still opens the page.
 */
export const PageQuery = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: true });

/** The CSRF token every posted form carries (checked by @fastify/csrf-protection, which answers 403 without it). */
export const CsrfField = Type.Optional(Type.String({ maxLength: 200 }));

/** A posted form: its fields and the CSRF token, and nothing else; an unknown field is a 400, never dropped. */
export const FormBody = <P extends TProperties>(properties: P) =>
  Type.Object({ ...properties, _csrf: CsrfField }, { additionalProperties: false });

/** A form of one button: only the CSRF token. */
export const ButtonBody = FormBody({});

/** A line of text typed into a form or a query string. */
export const Text = (maxLength = 2000) => Type.String({ maxLength });

/**
 * A list's cursor (`after` / `before`): the id of a row. A malformed one is a 400 page, not an empty list.
 */
export const Cursor = Type.String({ pattern: '^[a-z]+_[0-9a-z]{26}$', maxLength: 64 });

/** How a page names a row in its path: a slug, or an id (`crs_…`) that the service looks up the same way. */
export const Key = Type.String({ minLength: 1, maxLength: 256 });

export const SlugParams = Type.Object({ slug: Key });
export const IdParams = Type.Object({ id: Key });

/** A list page's query: `after` / `before` cursors and its own filters (text: a meaningless filter is ignored). */
export const ListQuery = <P extends TProperties>(properties: P) =>
  PageQuery({ ...properties, after: Type.Optional(Cursor), before: Type.Optional(Cursor) });

/**
 * A form whose fields are numbered by what it shows (a quiz's `q0`, `q1` …): each a text or, for a group of
 * checkboxes, a list of texts; any other name is refused.
 */
export const NumberedFormBody = (prefix: string) =>
  Type.Record(
    Type.String({ pattern: `^(${prefix}[0-9]{1,3}|_csrf)$` }),
    Type.Union([Text(), Type.Array(Text(), { maxItems: 20 })]),
    { additionalProperties: false },
  );

/**
 * A form of the admin's form kit, derived at run time from an operation's schema: every value text, or a list of
 * texts for a group of boxes. Which names it has is the operation's schema's (read by the form kit's
 * `bodyFromForm`), so the route can only say that every value is text.
 */
export const DerivedFormBody = Type.Record(
  Type.String({ maxLength: 200 }),
  Type.Union([Text(1_000_000), Type.Array(Text(1_000_000), { maxItems: 1000 })]),
);

/** The query of an admin list, whose filters are its list operation's (read by the screen): each text. */
export const DerivedQuery = Type.Record(
  Type.String({ maxLength: 200 }),
  Type.Union([Text(), Type.Array(Text(), { maxItems: 100 })]),
);
