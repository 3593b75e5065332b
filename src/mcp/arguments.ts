import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { toApiError } from '../http/error-handler.ts';
import type { ApiError } from '../http/errors.ts';
import type { JsonSchema } from '../operations/tool-description.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Argument checks for the tools written by hand (the catalog composites and the operation index), with the rules the
 * API applies to a JSON body — no coercion, unknown fields refused — and the same invalid_request wording, so a
 * missing or wrong argument reads the same whichever tool it was given to. Defaults are filled in.
 */
export function argumentChecker() {
  const ajv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: true }));
  return (schema: JsonSchema) => {
    const validate = ajv.compile(schema);
    return (args: Record<string, unknown>): ApiError | undefined => {
      if (validate(args)) return undefined;
      const failure = Object.assign(new Error('invalid arguments'), {
        validation: validate.errors ?? [],
        validationContext: 'arguments',
      });
      return toApiError(failure);
    };
  };
}
