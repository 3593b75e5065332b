import { FIELD_WORDS, FIELD_WORDS_IN, type FieldWords } from './field-words.ts';
import { LIST_WORDS, OPERATION_WORDS, type OperationWords } from './operation-words.ts';
import { VALUE_WORDS, VALUE_WORDS_IN } from './value-words.ts';

/**
 * Looking words up in the vocabulary. `where` names what the field is shown on, most particular first (the
 * operation, then the admin resource), for the entries that mean something else there.
 *
 * A word missing from the vocabulary fails test/web/admin/vocabulary.test.ts; until it is written the screen still
 * works, showing the plain field name (never a schema's description or an operation's summary).
 */
export function fieldWords(name: string, where: readonly (string | undefined)[] = []): FieldWords | undefined {
  for (const place of where) {
    const own = place ? FIELD_WORDS_IN[place]?.[name] : undefined;
    if (own) return own;
  }
  return FIELD_WORDS[name];
}

export const fieldLabel = (name: string, where: readonly (string | undefined)[] = []) =>
  fieldWords(name, where)?.label ?? name.replaceAll('_', ' ');

export const isHiddenField = (name: string, where: readonly (string | undefined)[] = []) =>
  fieldWords(name, where)?.hidden === true;

/** The words of a value of a choice (a state, an option), by `resource.field`, then the field, then the value. */
export function valueWords(value: string, field: string, resource?: string): string | undefined {
  return (
    (resource ? VALUE_WORDS_IN[`${resource}.${field}`]?.[value] : undefined) ??
    VALUE_WORDS_IN[field]?.[value] ??
    VALUE_WORDS[value]
  );
}

export const valueLabel = (value: string, field: string, resource?: string) =>
  valueWords(value, field, resource) ?? value.replaceAll('_', ' ');

const NO_WORDS: OperationWords = { button: 'Go', done: 'Done.' };

export const operationWords = (name: string): OperationWords => OPERATION_WORDS[name] ?? NO_WORDS;

/** The heading of an operation's screen: its own title, or its button. */
export const operationTitle = (name: string) => {
  const words = operationWords(name);
  return words.title ?? words.button;
};

export const listHeading = (name: string) => LIST_WORDS[name];
