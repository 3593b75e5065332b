import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { csvLine } from '../../areas/csv.ts';
import { html } from '../../text/html.ts';
import { Key } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminLink, adminPage, doneNotice } from './admin-context.ts';
import { rowsTable } from './screens-view.ts';

type Coupon = Record<string, unknown> & { id: string; code: string };

/** Most codes one batch holds (bulkCreateCoupons makes at most 1,000). */
const MOST = 1000;

/**
 * A batch of bulk-made coupons: its codes on a page, and as a CSV file to hand to a partner or a mailing tool. Read
 * through listCoupons (batch=…), so a code that was since used or disabled shows as it is now.
 */
export function registerCouponBatches(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);
  const link = adminLink(deps.operations);

  async function batch(request: FastifyRequest & { params: { batch: string } }) {
    const all: Coupon[] = [];
    let after: string | undefined;
    do {
      const answer = await deps.call(request, 'listCoupons', {
        batch: request.params.batch,
        limit: 100,
        ...(after ? { starting_after: after } : {}),
      });
      if (answer.status !== 200) return undefined;
      all.push(...(answer.body.data as Coupon[]));
      after = answer.body.has_more ? String(answer.body.next_cursor) : undefined;
    } while (after && all.length < MOST);
    return all.length ? all : undefined;
  }

  app.get(
    '/admin/coupons/batches/:batch',
    { schema: { params: Type.Object({ batch: Key }) }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const coupons = await batch(request);
      if (!coupons) return reply.callNotFound();
      const csv = `/admin/coupons/batches/${encodeURIComponent(request.params.batch)}/codes.csv`;
      const body = html`<p>${coupons.length} code${coupons.length === 1 ? '' : 's'} in the batch ${request.params.batch}.</p>
<p><a class="button" href="${csv}" download>Download the codes (CSV)</a></p>${rowsTable({
        rows: coupons,
        title: ['code'],
        columns: ['state', 'percent_off', 'amount_off', 'times_redeemed', 'expires_at'],
        href: (row) => link(String(row.id)),
        view: { link, names: new Map(), clock: await deps.clock(request), resource: 'coupons' },
      })}`;
      return page(request, reply, {
        title: `Coupons ${request.params.batch}`,
        current: 'coupons',
        body,
        notice: doneNotice(deps, request),
      });
    },
  );

  app.get(
    '/admin/coupons/batches/:batch/codes.csv',
    { schema: { params: Type.Object({ batch: Key }) }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const coupons = await batch(request);
      if (!coupons) return reply.callNotFound();
      const money = (v: unknown) => {
        const m = v as { amount?: number; currency?: string } | null;
        return m?.amount !== undefined ? `${m.amount} ${m.currency ?? ''}`.trim() : '';
      };
      const lines = [
        csvLine(['code', 'percent_off', 'amount_off', 'expires_at', 'max_redemptions']),
        ...coupons.map((c) =>
          csvLine([
            c.code,
            (c.percent_off as number | null) ?? null,
            money(c.amount_off),
            (c.expires_at as string | null) ?? null,
            (c.max_redemptions as number | null) ?? null,
          ]),
        ),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="coupons-${request.params.batch.replace(/[^\w-]/g, '_')}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(lines.join(''));
    },
  );
}
