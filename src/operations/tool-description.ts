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

/** A JSON copy of a schema without its `$id`s: a tool's schemas stand alone, outside any OpenAPI components. */
export function standaloneSchema(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema ?? {}), (key, value) => (key === '$id' ? undefined : value)) as JsonSchema;
}
