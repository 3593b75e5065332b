import Type, { type Static } from 'typebox';
import { Id, Page, Timestamp } from '../../http/schemas.ts';

const Channel = Type.Union([Type.Literal('api'), Type.Literal('mcp'), Type.Literal('admin')], {
  description: 'api: the REST API (apps, the lyceum CLI); mcp: an MCP tool; admin: the browser admin',
});

export const AuditEntry = Type.Object(
  {
    id: Id('aud'),
    at: Timestamp,
    actor: Type.Union(
      [
        Type.Object({
          id: Type.String(),
          email: Type.Union([Type.String(), Type.Null()], { description: 'As it was when the write was made' }),
          role: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: 'Who made the write (null: nobody signed in, e.g. a self-service action of the public API)' },
    ),
    client: Type.Union(
      [
        Type.Object({
          id: Type.String(),
          name: Type.Union([Type.String(), Type.Null()], { description: "The app's name when the write was made" }),
        }),
        Type.Null(),
      ],
      { description: 'The OAuth client (app) the write came through; null for the browser admin' },
    ),
    channel: Channel,
    operation: Type.String({ description: 'The operationId of the API operation' }),
    method: Type.String(),
    path: Type.String({ description: 'The request path, without its query string' }),
    object: Type.Union(
      [Type.Object({ type: Type.String(), id: Type.Union([Type.String(), Type.Null()]) }), Type.Null()],
      { description: 'What the write acted on: the object named in the path, or the one a create made' },
    ),
    fields: Type.Array(Type.String(), {
      description: 'The names of the body fields sent (never their values, which may be passwords)',
    }),
    ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100)' })),
    starting_after: Type.Optional(
      Type.String({ maxLength: 64, description: 'Cursor: the id of the last entry of the previous page' }),
    ),
    actor_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only writes by this person' })),
    client_id: Type.Optional(Type.String({ maxLength: 200, description: 'Only writes through this app' })),
    operation: Type.Optional(Type.String({ maxLength: 64, description: 'Only this operation (operationId)' })),
    object_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only writes on this object' })),
    channel: Type.Optional(Channel),
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type AuditListQuery = Static<typeof AuditListQuery>;

export const AuditPage = Page(AuditEntry);

export const AuditIdParams = Type.Object({ id: Id('aud') }, { additionalProperties: false });
