import type { FastifyInstance } from 'fastify';
import type { SetupService } from '../identity/setup.ts';
import { html } from './html.ts';
import type { PageRenderer } from './page-context.ts';

export function registerHomePage(app: FastifyInstance, deps: { setup: SetupService; render: PageRenderer }) {
  app.get('/', { config: { page: true } }, async (request, reply) => {
    if (await deps.setup.needed()) {
      return deps.render(
        request,
        reply,
        'Welcome to Lyceum',
        html`<p>This school is not set up yet. The one-time setup link is in the server's log; open it to create the school and its owner account.</p>`,
      );
    }
    const viewer = request.viewer;
    const body = viewer
      ? html`<p>Welcome back, ${viewer.name}.</p>`
      : html`<p>Welcome. <a href="/signin">Sign in</a> or <a href="/signup">create an account</a>.</p>`;
    return deps.render(request, reply, 'Home', body);
  });
}
