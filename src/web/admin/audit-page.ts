import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AuditEntry } from '../../areas/audit/schema.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage } from './admin-context.ts';
import { AUDIT_SENTENCES } from './audit-sentences.ts';
import { type AuditLine, auditView } from './audit-view.ts';
import { resourceOfId } from './catalog.ts';
import { whenInWords } from './form-kit/school-time.ts';
import { rowName } from './form-kit/values-view.ts';

const PAGE_SIZE = 50;
const Query = Type.Object({ after: Type.Optional(Type.String({ maxLength: 64 })) });

/**
 * The audit log at /admin/audit as sentences — "Ada Lovelace (owner) published the course “Hatching eggs” · 26 Nov
 * 2026, 14:05" — read through listAuditLog; the names of people and objects through their own get operations, so
 * the screen shows only what the person may see, and an object that is gone is named by the phrase alone.
 */
export function registerAuditPage(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);

  /** A name per id, asked once per screen. */
  function namer(request: FastifyRequest) {
    const known = new Map<string, Promise<{ name: string; href?: string } | undefined>>();
    const person = (actor: NonNullable<AuditEntry['actor']>) => {
      const operation = actor.role === 'student' ? 'getStudent' : 'getStaffMember';
      return deps.call(request, operation, { id: actor.id }).then((answer) => {
        const name = answer.status === 200 ? String(answer.body.name ?? '') : '';
        return { name: name || actor.email || 'A person no longer at the school' };
      });
    };
    const object = async (id: string) => {
      const resource = resourceOfId(deps.operations, id);
      if (!resource?.get) return undefined;
      const answer = await deps.call(request, resource.get, { id });
      if (answer.status !== 200) return undefined;
      const name = rowName(answer.body, resource.title);
      // A thing without a name of its own (rowName falls back to its id) is told by the phrase alone.
      return name === id ? undefined : { name, href: `/admin/${resource.key}/${encodeURIComponent(id)}` };
    };
    const once = <T extends { name: string; href?: string } | undefined>(key: string, load: () => Promise<T>) => {
      if (!known.has(key)) known.set(key, load());
      return known.get(key) as Promise<T>;
    };
    return {
      person: (actor: NonNullable<AuditEntry['actor']>) => once(`person:${actor.id}`, () => person(actor)),
      object: (id: string) => once(`object:${id}`, () => object(id)),
    };
  }

  app.get(
    '/admin/audit',
    { schema: { querystring: Query }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const list = await deps.call(request, 'listAuditLog', {
        limit: PAGE_SIZE,
        ...(request.query.after ? { starting_after: request.query.after } : {}),
      });
      if (list.status !== 200) return reply.callNotFound();
      const clock = await deps.clock(request);
      const names = namer(request);
      const lines: AuditLine[] = await Promise.all(
        (list.body.data as AuditEntry[]).map(async (entry) => {
          const who = entry.actor
            ? `${(await names.person(entry.actor)).name}${entry.actor.role ? ` (${entry.actor.role})` : ''}`
            : 'Someone not signed in';
          const [before = '', after = ''] = (AUDIT_SENTENCES[entry.operation] ?? 'made a change to {object}').split(
            '{object}',
          );
          const object = entry.object?.id ? await names.object(entry.object.id) : undefined;
          return {
            who,
            before: before.trim(),
            after: after.trim(),
            object,
            through: entry.client?.name ?? undefined,
            when: whenInWords(entry.at, clock),
            at: entry.at,
            entryHref: `/admin/audit/${encodeURIComponent(entry.id)}`,
          };
        }),
      );
      const next = list.body.next_cursor;
      return page(request, reply, {
        title: 'Audit log',
        current: 'audit',
        body: auditView({
          lines,
          timezone: clock.zone,
          olderHref:
            typeof next === 'string' && next ? `/admin/audit?${new URLSearchParams({ after: next })}` : undefined,
        }),
      });
    },
  );
}
