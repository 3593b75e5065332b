import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { pdf } from '../support/files.ts';
import { legacyClient } from '../support/mcp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadAsset } from '../support/storage.ts';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

for (const engine of engines) {
  describe(`what the school sells, in the agent documents and the anonymous MCP tools (${engine})`, () => {
    let server: TestServer;
    let plan: { id: string; slug: string };
    let hidden: { id: string };
    let price: { id: string };
    let product: { id: string; slug: string };

    before(async () => {
      server = await startTestServer(engine, { DOCS_CACHE_SECONDS: '0', PAYMENTS_PROVIDER: 'test' });
      const { staff: person } = await schoolWithPeople(server);
      const token = await tokenFor(
        server,
        person,
        'membership_plans:write digital_products:write courses:write curriculum:write storage:write',
      );
      const staff = apiClient(server.url, token);
      const course = ok<{ id: string }>(await staff.post('/api/v1/courses', { title: 'Studio Drawing' }), 201);
      ok(await publishWithALesson(staff, course.id));
      plan = ok(
        await staff.post('/api/v1/membership-plans', {
          name: 'Studio Pass',
          course_ids: [course.id],
          visibility: 'public',
        }),
        201,
      );
      price = ok(
        await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
          amount: 1200,
          currency: 'EUR',
          interval: 'month',
          trial_days: 14,
        }),
        201,
      );
      hidden = ok(await staff.post('/api/v1/membership-plans', { name: 'Secret Pass', visibility: 'hidden' }), 201);
      const file = await uploadAsset(
        server,
        token,
        { purpose: 'pdf', filename: 'Colour Wheel.pdf', content_type: 'application/pdf' },
        pdf(),
      );
      product = ok(
        await staff.post('/api/v1/digital-products', {
          title: 'Colour Wheel',
          price: { amount: 900, currency: 'EUR' },
          asset_ids: [file.id],
        }),
        201,
      );
      ok(await staff.post(`/api/v1/digital-products/${product.id}/publish`));
    });
    after(() => server.close());

    const text = async (path: string) => (await fetch(`${server.url}${path}`)).text();

    test('pricing.md lists each public plan price with its trial and checkout, and each published product', async () => {
      const md = await text('/pricing.md');
      assert.ok(
        md.includes(
          `| Studio Pass | €12.00 | monthly | 14 days | Studio Drawing | ${server.url}/checkout/plan/${price.id} |`,
        ),
        md,
      );
      assert.ok(md.includes(`| Colour Wheel | €9.00 | 1 | ${server.url}/products/${product.slug} |`), md);
      assert.ok(!md.includes('Secret Pass'), 'a hidden plan is not listed');
      assert.match(md, /press Buy/);
    });

    test('llms.txt lists the plans and products with their API addresses', async () => {
      const llms = await text('/llms.txt');
      assert.ok(
        llms.includes(
          `- [Studio Pass](${server.url}/plans/${plan.slug}): €12.00 a month (14-day trial) · includes Studio Drawing · API ${server.url}/api/v1/membership-plans/${plan.id}`,
        ),
        llms,
      );
      assert.ok(
        llms.includes(
          `- [Colour Wheel](${server.url}/products/${product.slug}): €9.00 · 1 file · API ${server.url}/api/v1/digital-products/${product.id}`,
        ),
        llms,
      );
    });

    test('an anonymous MCP client lists plans with their prices and products, and reads the pricing', async () => {
      const client = await legacyClient(server.url);
      try {
        const plans = (await client.callTool({ name: 'listMembershipPlans', arguments: {} })).structuredContent as {
          data: { id: string; prices: { id: string }[] }[];
        };
        const ids = plans.data.map((p) => p.id);
        assert.ok(ids.includes(plan.id));
        assert.ok(!ids.includes(hidden.id));
        assert.deepEqual(
          plans.data.find((p) => p.id === plan.id)?.prices.map((p) => p.id),
          [price.id],
        );
        const products = (await client.callTool({ name: 'listDigitalProducts', arguments: {} })).structuredContent as {
          data: { id: string }[];
        };
        assert.ok(products.data.some((p) => p.id === product.id));
        const pricing = (await client.callTool({ name: 'getPricing', arguments: {} })).structuredContent as {
          markdown: string;
        };
        assert.match(pricing.markdown, /Studio Pass/);
        assert.match(pricing.markdown, /Colour Wheel/);
      } finally {
        await client.close();
      }
    });

    test('the OpenAPI document carries the commerce operations', async () => {
      const doc = JSON.parse(await text('/openapi.json')) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const operations = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)));
      for (const id of [
        'listMembershipPlans',
        'createPlanPrice',
        'listDigitalProducts',
        'listCoupons',
        'listOrders',
        'startCheckout',
        'listSubscriptions',
        'listMembers',
        'getAnalyticsSeries',
      ])
        assert.ok(operations.has(id), id);
    });
  });
}
