import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RouteEntry } from '../../../src/http/guard.ts';
import { type OperationTool, operationTools } from '../../../src/operations/operation-tools.ts';
import type { JsonSchema } from '../../../src/operations/tool-description.ts';
import {
  availableResources,
  indexOperations,
  needsConfirmation,
  objectOperations,
} from '../../../src/web/admin/catalog.ts';
import { type FormField, formFields } from '../../../src/web/admin/form-kit/schema-fields.ts';
import { OPERATION_WORDS } from '../../../src/web/admin/vocabulary/operation-words.ts';
import { fieldWords, listHeading, valueWords } from '../../../src/web/admin/vocabulary/words.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const PAGING = new Set(['limit', 'starting_after', 'sort']);

/** The fields of a form, with those of its groups and rows. */
const flat = (fields: FormField[]): FormField[] =>
  fields.flatMap((f) => [
    f,
    ...flat((f.fields ?? []).map((sub) => ({ ...sub, name: sub.name.split('.').pop() ?? '' }))),
  ]);

const propertiesOf = (schema: unknown) =>
  ((schema as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>;
const itemsOf = (schema: unknown) => propertiesOf(schema).data?.items;

/**
 * The admin speaks from one vocabulary: every label, hint, button, heading, confirmation, notice and state word it
 * shows is written in src/web/admin/vocabulary/. These walk the live operation table and the admin's resources the way
 * the admin does, and name each field, operation or value that would be shown without words.
 */
describe('the admin vocabulary', () => {
  let server: TestServer;
  let tools: OperationTool[];
  before(async () => {
    server = await startTestServer('sqlite');
    tools = operationTools(server.routes as RouteEntry[]);
  });
  after(() => server.close());

  test('every write operation has a button and a done notice; one that takes something away asks in words', () => {
    const missing = tools
      .filter((t) => t.route.method !== 'GET')
      .flatMap((t) => {
        const words = OPERATION_WORDS[t.name];
        if (!words) return [`${t.name}: no words`];
        return needsConfirmation(t) && !words.confirm ? [`${t.name}: no confirmation sentence`] : [];
      });
    assert.deepEqual(missing, []);
  });

  test('every field of every form and filter has a label; every option has words', () => {
    const ops = indexOperations(tools);
    const missing = new Set<string>();
    const check = (fields: FormField[], where: (string | undefined)[], resource?: string) => {
      for (const field of flat(fields)) {
        if (!fieldWords(field.name, where)) missing.add(`field ${field.name} (${where.filter(Boolean).join(', ')})`);
        for (const option of field.options ?? [])
          if (!valueWords(option, field.name, resource)) missing.add(`value ${field.name}=${option}`);
      }
    };
    for (const tool of tools.filter((t) => t.route.method !== 'GET')) {
      const { params, query, body } = tool.route.args;
      check(formFields(tool.inputSchema, [...params, ...query, ...body], [tool.name]), [tool.name]);
    }
    for (const resource of availableResources(ops)) {
      const list = ops.get(resource.list ?? '');
      if (list)
        check(
          formFields(list.inputSchema, list.route.args.query, [list.name, resource.key]).filter(
            (f) => !PAGING.has(f.name),
          ),
          [list.name, resource.key],
          resource.key,
        );
      for (const name of [resource.create, resource.update]) {
        const tool = ops.get(name ?? '');
        if (tool)
          check(
            formFields(tool.inputSchema, tool.route.args.body, [tool.name, resource.key]),
            [tool.name, resource.key],
            resource.key,
          );
      }
    }
    assert.deepEqual([...missing].sort(), []);
  });

  test("every fact, column and child list of an object's page has words, and so does every state it can be in", () => {
    const ops = indexOperations(tools);
    const missing = new Set<string>();
    const checkObject = (schema: unknown, resource: string) => {
      for (const field of formFields(schema as JsonSchema, undefined, [resource])) {
        if (!fieldWords(field.name, [resource])) missing.add(`field ${field.name} (${resource})`);
        for (const option of field.options ?? [])
          if (!valueWords(option, field.name, resource)) missing.add(`value ${resource}.${field.name}=${option}`);
      }
      for (const [name, property] of Object.entries(propertiesOf(schema))) {
        const items = (property.items ?? (property.anyOf as JsonSchema[] | undefined)?.find((s) => s.items)?.items) as
          | JsonSchema
          | undefined;
        if (items?.properties)
          for (const nested of Object.keys(items.properties as object))
            if (!fieldWords(nested, [resource])) missing.add(`field ${name}.${nested} (${resource})`);
        // An object inside the object (a section's release: its type, days, date) is shown with its own words.
        const inner = property.properties
          ? property
          : (property.anyOf as JsonSchema[] | undefined)?.find((s) => s.properties);
        if (inner) checkObject(inner, resource);
      }
    };
    for (const resource of availableResources(ops)) {
      const get = ops.get(resource.get ?? '');
      if (get) checkObject(get.outputSchema, resource.key);
      const list = ops.get(resource.list ?? '');
      if (list) checkObject(itemsOf(list.outputSchema), resource.key);
      for (const column of [...resource.title, ...resource.columns])
        if (!fieldWords(column, [resource.key])) missing.add(`column ${column} (${resource.key})`);
      for (const child of objectOperations(ops, resource).children) {
        if (!listHeading(child.name)) missing.add(`list heading ${child.name}`);
        checkObject(itemsOf(child.outputSchema) ?? child.outputSchema, resource.key);
      }
    }
    assert.deepEqual([...missing].sort(), []);
  });
});
