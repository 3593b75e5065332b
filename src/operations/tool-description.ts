import type { Scope } from '../security/scopes.ts';

export type JsonSchema = Record<string, unknown>;

/** What every MCP tool tells a client about itself, and the scope the HTTP layer checks before it runs. */
export type ToolDescription = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  _meta: Record<string, unknown>;
  /** The scope a token must hold to call it; anonymous tools also run without a token (the public view). */
  scope: Scope;
  anonymous: boolean;
};

/** The JSON text of each schema object's standalone copy: route schemas are module-level constants, and every app a
 * process builds (a test file builds dozens) derives its tools from them again. */
const standaloneText = new WeakMap<object, string>();

/** A JSON copy of a schema without its `$id`s: a tool's schemas stand alone, outside any OpenAPI components. */
export function standaloneSchema(schema: unknown): JsonSchema {
  const strip = () => JSON.parse(JSON.stringify(schema ?? {}), (key, value) => (key === '$id' ? undefined : value));
  if (typeof schema !== 'object' || schema === null) return strip() as JsonSchema;
  let text = standaloneText.get(schema);
  if (text === undefined) {
    text = JSON.stringify(strip());
    standaloneText.set(schema, text);
  }
  // A fresh copy each time, as before: a caller may change what it is given.
  return JSON.parse(text) as JsonSchema;
}
