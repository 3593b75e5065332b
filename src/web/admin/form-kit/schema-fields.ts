import type { JsonSchema } from '../../../operations/tool-description.ts';
import { fieldWords, valueLabel } from '../vocabulary/words.ts';

/**
 * How the admin shows one input of an operation. Its kind comes from the operation's own JSON schema, so a field
 * added to an API body appears in the admin's form without admin code, and the API stays the only judge of what is
 * valid; its label, hint and the words of its options come from the vocabulary (vocabulary/), never from the schema.
 */
export type FieldKind =
  | 'text'
  | 'email'
  | 'url'
  | 'textarea'
  | 'number'
  /** A place in an order, counted from 1 for people and from 0 by the API. */
  | 'place'
  /** An amount of money in minor units for the API, typed in major units (10 for €10). */
  | 'amount'
  | 'boolean'
  | 'select'
  | 'datetime'
  | 'date'
  | 'lines'
  | 'money'
  | 'ref'
  | 'refs'
  | 'color'
  | 'group'
  | 'rows'
  | 'json';

export type FormField = {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  /** Empty means null (clears the value) rather than "not given". */
  nullable: boolean;
  options?: string[];
  /** The words shown for each option, in the same order. */
  optionLabels?: string[];
  /** For an `amount`: the currency it is in, when the page knows it (a refund: the order's). */
  currency?: string;
  hint?: string;
  /** The schema's default, which an untouched create form leaves to the API. */
  defaultValue?: unknown;
  /** For ids of other objects (`ref`, `refs`): their prefix (`lec` for lecturer ids), to offer them by name. */
  prefix?: string;
  /** A long text written in Markdown (offered a preview). */
  markdown?: boolean;
  /** The fields of a small object (`group`), named `<name>.<field>`, or of each row of a list of them (`rows`),
   * named `<name>.<index>.<field>`. */
  fields?: FormField[];
};

/** The prefix of an id schema (`^lec_[0-9a-z]{26}$`), if it is one. */
const idPrefix = (schema: JsonSchema) =>
  typeof schema.pattern === 'string' ? /^\^([a-z]+)_\[0-9a-z\]\{26\}\$$/.exec(schema.pattern)?.[1] : undefined;

/** Fields whose text is long by nature, whatever their schema's limit. */
const LONG_TEXT =
  /^(body|draft_body|description|bio|excerpt|custom_css|note|benefits|message|content|text|answer|summary)$/;
/** Long texts the site shows as Markdown. */
const MARKDOWN = /^(body|draft_body|description|bio|excerpt)$/;
const COLOR = '^#[0-9A-Fa-f]{6}$';

/** An object of a few plain fields (colours, fonts) is shown as those fields, not as JSON. */
const isSmallObject = (s: JsonSchema) => {
  const props = Object.values((s.properties ?? {}) as Record<string, JsonSchema>);
  return (
    s.type === 'object' &&
    props.length > 0 &&
    props.length <= 8 &&
    props.every((p) => ['string', 'integer', 'number', 'boolean'].includes(String(p.type)) && !p.anyOf)
  );
};

const isNull = (s: JsonSchema) => s.type === 'null';
const constOf = (s: JsonSchema): string | undefined =>
  typeof s.const === 'string' ? s.const : Array.isArray(s.enum) && s.enum.length === 1 ? String(s.enum[0]) : undefined;

const isMoney = (s: JsonSchema) => {
  const props = s.properties as Record<string, JsonSchema> | undefined;
  return s.type === 'object' && !!props?.amount && !!props?.currency && Object.keys(props).length === 2;
};

/** The kind of one field of a schema, unwrapping "X or null" and unions of string literals. */
function kindOf(
  name: string,
  schema: JsonSchema,
  where: Where,
): Pick<FormField, 'kind' | 'nullable' | 'options' | 'prefix' | 'markdown' | 'fields'> {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) {
    const rest = alternatives.filter((s) => !isNull(s));
    const nullable = rest.length < alternatives.length;
    const literals = rest.map(constOf);
    if (literals.every((l) => l !== undefined)) return { kind: 'select', nullable, options: literals as string[] };
    if (rest.length === 1) return { ...kindOf(name, rest[0] as JsonSchema, where), nullable };
    return { kind: 'json', nullable };
  }
  if (Array.isArray(schema.enum)) return { kind: 'select', nullable: false, options: schema.enum.map(String) };
  switch (schema.type) {
    case 'string': {
      const prefix = idPrefix(schema);
      if (prefix) return { kind: 'ref', nullable: false, prefix };
      if (schema.pattern === COLOR) return { kind: 'color', nullable: false };
      const format = schema.format;
      if (format === 'date-time') return { kind: 'datetime', nullable: false };
      if (format === 'date') return { kind: 'date', nullable: false };
      if (format === 'email') return { kind: 'email', nullable: false };
      if (format === 'uri') return { kind: 'url', nullable: false };
      const long = LONG_TEXT.test(name) || (typeof schema.maxLength === 'number' && schema.maxLength > 500);
      return long
        ? { kind: 'textarea', nullable: false, ...(MARKDOWN.test(name) ? { markdown: true } : {}) }
        : { kind: 'text', nullable: false };
    }
    case 'integer':
      // The API counts places from 0 and keeps money in minor units; a person counts from 1 and types euros.
      if (name === 'position') return { kind: 'place', nullable: false };
      if (name === 'amount') return { kind: 'amount', nullable: false };
      return { kind: 'number', nullable: false };
    case 'number':
      return { kind: 'number', nullable: false };
    case 'boolean':
      return { kind: 'boolean', nullable: false };
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      const prefix = idPrefix(items);
      if (prefix) return { kind: 'refs', nullable: false, prefix };
      if (isSmallObject(items) && Object.values(items.properties as object).every((p) => p.type === 'string'))
        return { kind: 'rows', nullable: false, fields: formFields(items, undefined, where) };
      const itemKind = kindOf(name, items, where).kind;
      return { kind: itemKind === 'text' || itemKind === 'select' ? 'lines' : 'json', nullable: false };
    }
    case 'object':
      if (isMoney(schema)) return { kind: 'money', nullable: false };
      if (isSmallObject(schema))
        return {
          kind: 'group',
          nullable: false,
          fields: formFields(schema, undefined, where).map((f) => ({
            ...f,
            name: `${name}.${f.name}`,
            required: false,
          })),
        };
      return { kind: 'json', nullable: false };
    default:
      return { kind: 'json', nullable: false };
  }
}

/** What a field is shown on, most particular first: the operation, then the admin resource (for the vocabulary). */
export type Where = readonly (string | undefined)[];

/** The form fields of an object schema (an operation's body), in the schema's order, in the vocabulary's words. */
export function formFields(schema: JsonSchema | undefined, only?: readonly string[], where: Where = []): FormField[] {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties)
    .filter(([name]) => !only || only.includes(name))
    .map(([name, property]) => {
      const words = fieldWords(name, where);
      const kind = kindOf(name, property, where);
      const resource = where[where.length - 1];
      return {
        name,
        label: words?.label ?? name.replaceAll('_', ' '),
        required: required.has(name),
        ...kind,
        ...(kind.options ? { optionLabels: kind.options.map((o) => valueLabel(o, name, resource)) } : {}),
        ...(words?.hint ? { hint: words.hint } : {}),
        ...('default' in property ? { defaultValue: property.default } : {}),
      };
    });
}
