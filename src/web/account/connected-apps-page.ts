import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { ConnectedApps } from '../../areas/oauth-port.ts';
import { ApiError } from '../../http/errors.ts';
import { html } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { FormBody } from '../shared/page-schemas.ts';

/** Connected apps: each client the signed-in user granted, with the scopes and when, and a button that revokes it. */
export function registerAccountAppsPage(fastify: FastifyInstance, deps: { apps: ConnectedApps; render: PageRenderer }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  app.get('/account/apps', { config }, async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect('/signin?return_to=%2Faccount%2Fapps', 303);
    const apps = await deps.apps.list(viewer.id);
    const csrf = reply.generateCsrf();
    const body = apps.length
      ? html`<ul class="apps">${apps.map(
          (a) => html`<li><h2>${a.client_name}</h2>
<p>Allowed on <time datetime="${a.granted_at}">${a.granted_at.slice(0, 16).replace('T', ' ')} UTC</time>: ${a.scopes.map((s, i) => html`${i ? ' ' : ''}<code>${s}</code>`)}</p>
<form method="post" action="/account/apps/revoke">${csrfField(csrf)}<input type="hidden" name="client_id" value="${a.client_id}">
<button type="submit">Revoke access for ${a.client_name}</button></form></li>`,
        )}</ul>`
      : html`<p>No apps are connected to your account.</p>`;
    return deps.render(request, reply, 'Connected apps', body);
  });

  app.post(
    '/account/apps/revoke',
    {
      config,
      schema: { body: FormBody({ client_id: Type.String({ minLength: 1, maxLength: 256 }) }) },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const viewer = request.viewer;
      if (!viewer) return reply.redirect('/signin?return_to=%2Faccount%2Fapps', 303);
      const clientId = request.body.client_id;
      if (!(await deps.apps.revoke(viewer.id, clientId)))
        throw new ApiError('not_found', 'That app is not connected to your account.');
      return reply.redirect('/account/apps', 303);
    },
  );
}
