import type { FastifyInstance } from 'fastify';

const SITE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { max-width: 44rem; margin: 0 auto; padding: 1rem; }
header { display: flex; justify-content: space-between; align-items: center; gap: 1rem; border-bottom: 1px solid #8884; padding-bottom: .5rem; }
header nav { display: flex; gap: 1rem; align-items: center; }
.brand { font-weight: 700; text-decoration: none; }
label { display: block; font-weight: 600; }
input, select, textarea { font: inherit; padding: .4rem; width: 100%; max-width: 24rem; box-sizing: border-box; }
button { font: inherit; padding: .45rem 1.2rem; cursor: pointer; }
.error { border: 2px solid #c62828; padding: .5rem 1rem; border-radius: .3rem; }
.warning { border: 2px solid #b26a00; padding: .5rem 1rem; border-radius: .3rem; }
.notice { border: 2px solid #2e7d32; padding: .5rem 1rem; border-radius: .3rem; }
footer { margin-top: 3rem; font-size: .85rem; opacity: .7; }
`;

export function registerAssetRoutes(app: FastifyInstance) {
  app.get('/assets/site.css', { config: { public: true } }, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SITE_CSS),
  );
}
