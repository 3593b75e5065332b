import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators. Bodies are checked exactly as sent: no coercion and no removal of unknown fields, so a wrong type
 * or an unknown field is a 400 (Fastify's default would coerce types and silently drop extras). Query strings and
 * path parameters arrive as text, so they are coerced to the declared types, and defaults are applied.
 */
export function installValidators(app: FastifyInstance) {
  const common: Options = { allErrors: false, strict: false, removeAdditional: false };
  const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false, useDefaults: false }));
  const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array', useDefaults: true }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
  );
}
