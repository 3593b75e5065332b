import { createRequire } from 'node:module';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// biome-ignore lint/suspicious/noExplicitAny: what a compiled validator or serializer returns is Fastify's concern
type Compiled = (data: any) => any;

/**
 * Compiled validators and serializers, by schema object. Route schemas are module-level constants, so every app built
 * in one process (a test file starts dozens, each of which used to compile ~1 s of CPU worth of Ajv and
 * fast-json-stringify code) compiles each schema once. A compiled function depends only on its schema and the fixed
 * options below, so sharing it between apps changes nothing they answer.
 */
const bodyValidators = new WeakMap<object, Compiled>();
const textValidators = new WeakMap<object, Compiled>();
const serializers = new WeakMap<object, Compiled>();

function cached(cache: WeakMap<object, Compiled>, schema: unknown, compile: () => Compiled): Compiled {
  if (typeof schema !== 'object' || schema === null) return compile();
  let compiled = cache.get(schema);
  if (!compiled) {
    compiled = compile();
    cache.set(schema, compiled);
  }
  return compiled;
}

/**
 * Two validators. Bodies are checked exactly as sent: no coercion and no removal of unknown fields, so a wrong type
 * or an unknown field is a 400 (Fastify's default would coerce types and silently drop extras). Query strings and
 * path parameters arrive as text, so they are coerced to the declared types, and defaults are applied.
 */
export function installValidators(app: FastifyInstance) {
  const common: Options = { allErrors: false, strict: false, removeAdditional: false };
  let bodyAjv: Ajv | undefined;
  let textAjv: Ajv | undefined;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body'
      ? cached(bodyValidators, schema, () => {
          bodyAjv ??= addFormats(new Ajv({ ...common, coerceTypes: false, useDefaults: false }));
          return bodyAjv.compile(schema);
        })
      : cached(textValidators, schema, () => {
          textAjv ??= addFormats(new Ajv({ ...common, coerceTypes: 'array', useDefaults: true }));
          return textAjv.compile(schema);
        }),
  );
}

type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: { schema?: unknown }) => Compiled;

/** Fastify's own serializer factory (fast-json-stringify), resolved through Fastify, which depends on it. */
const defaultSerializerFactory = (
  createRequire(import.meta.resolve('fastify'))('@fastify/fast-json-stringify-compiler') as () => SerializerFactory
)();

/**
 * Fastify's default response serializers, each compiled once per schema object (see above). Only while no shared
 * schemas were added with `addSchema` (a `$ref` could then mean another schema in another app); the app adds none.
 */
export const serializerController: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer(externalSchemas: unknown, options: unknown) {
      const compile = defaultSerializerFactory(externalSchemas, options);
      if (Object.keys(externalSchemas ?? {}).length > 0) return compile;
      return (route: { schema?: unknown }) => cached(serializers, route.schema, () => compile(route));
    },
  },
};
