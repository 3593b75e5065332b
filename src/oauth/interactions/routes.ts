import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { ApiError } from '../../http/errors.ts';
import type { PageRenderer } from '../../web/page-context.ts';
import { OAUTH_PATHS } from '../provider.ts';
import { clearProviderSession } from '../provider-session.ts';
import { formActionSourceFor, withFormAction } from '../redirect-csp.ts';
import { visibleClientName } from '../registration.ts';
import { partitionByRole } from '../scopes.ts';
import { consentPage } from './consent-page.ts';

type Params = { uid: string };

/**
 * The provider's login and consent prompts, on the school's own pages. Login reuses the school's browser session
 * (no second password prompt when signed in); consent shows only what the user's role may grant.
 */
export function registerInteractionRoutes(app: FastifyInstance, deps: { provider: Provider; render: PageRenderer }) {
  const { provider, render } = deps;
  const config = { page: true };

  const details = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw new ApiError(
        'not_found',
        'This sign-in request has expired or was already answered; start again from the app.',
      );
    }
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, result: InteractionResults, merge: boolean) => {
    const url = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    return reply.redirect(url, 303);
  };

  app.get<{ Params: Params; Querystring: { reauth_after?: string } }>(
    '/oauth/interaction/:uid',
    { config },
    async (request, reply) => {
      const interaction = await details(request, reply);
      const viewer = request.viewer;
      const backAfterSignIn = (reauth: boolean) => {
        const back = `/oauth/interaction/${interaction.uid}?reauth_after=${encodeURIComponent(reply.signCookie(String(Date.now())))}`;
        return reply.redirect(`/signin?${reauth ? 'reauth=1&' : ''}return_to=${encodeURIComponent(back)}`, 303);
      };
      if (!viewer) return backAfterSignIn(false);
      const params = interaction.params as {
        client_id: string;
        redirect_uri: string;
        scope?: string;
        prompt?: string;
        max_age?: string | number;
      };
      if (interaction.session?.accountId && interaction.session.accountId !== viewer.id) {
        // The provider's browser session belongs to someone who signed out since: forget it and start this
        // authorization again for the person now signed in.
        clearProviderSession(reply);
        const restart = new URLSearchParams();
        for (const [key, value] of Object.entries(params)) if (value !== undefined) restart.set(key, String(value));
        return reply.redirect(`${OAUTH_PATHS.authorization}?${restart}`, 303);
      }
      if (interaction.prompt.name === 'login') {
        // auth_time is when the user last entered their password; prompt=login and max_age demand a fresher one. The
        // sign-in page sends the user back here with a signed note of when we asked, so the new sign-in is recognised.
        const signedInAt = Date.parse(request.sessionCreatedAt ?? '') || 0;
        const note = request.query.reauth_after ? request.unsignCookie(request.query.reauth_after) : undefined;
        const askedAt = note?.valid ? Number(note.value) : undefined;
        const maxAge = params.max_age === undefined ? undefined : Number(params.max_age);
        const asked =
          interaction.prompt.reasons.includes('login_prompt') || String(params.prompt ?? '').includes('login');
        const fresh = askedAt !== undefined && signedInAt > askedAt;
        const stale = !fresh && (asked || (maxAge !== undefined && Date.now() - signedInAt > maxAge * 1000));
        if (stale) return backAfterSignIn(true);
        return finish(request, reply, { login: { accountId: viewer.id, ts: Math.floor(signedInAt / 1000) } }, false);
      }
      const client = await provider.Client.find(params.client_id);
      if (!client) throw new ApiError('not_found', 'The app that sent this request no longer exists.');
      const { granted, dropped } = partitionByRole(
        viewer.role,
        String(params.scope ?? '')
          .split(' ')
          .filter(Boolean),
      );
      // Answering the form redirects to the app; browsers apply form-action to that redirect too.
      reply.header(
        'content-security-policy',
        withFormAction(String(reply.getHeader('content-security-policy') ?? ''), [
          formActionSourceFor(params.redirect_uri),
        ]),
      );
      return render(
        request,
        reply,
        `Allow ${visibleClientName(client.clientName, 'this app')}?`,
        consentPage({
          uid: interaction.uid,
          csrf: reply.generateCsrf(),
          clientName: visibleClientName(client.clientName, params.client_id),
          clientId: params.client_id,
          redirectUri: params.redirect_uri,
          granted,
          dropped,
          viewerName: viewer.name,
        }),
      );
    },
  );

  app.post<{ Params: Params; Body: { decision?: string } }>(
    '/oauth/interaction/:uid/consent',
    { config, preHandler: app.csrfProtection },
    async (request, reply) => {
      const interaction = await details(request, reply);
      const viewer = request.viewer;
      if (!viewer || interaction.session?.accountId !== viewer.id || interaction.prompt.name !== 'consent') {
        throw new ApiError(
          'invalid_request',
          'This consent form no longer matches your sign-in; start again from the app.',
        );
      }
      const body = (request.body ?? {}) as Record<string, unknown>;
      const extra = Object.keys(body).filter((k) => k !== '_csrf' && k !== 'decision');
      if (extra.length || (body.decision !== 'allow' && body.decision !== 'deny')) {
        throw new ApiError('invalid_request', 'Answer with the Allow or Deny button.');
      }
      if (body.decision === 'deny') {
        return finish(
          request,
          reply,
          { error: 'access_denied', error_description: 'The user denied the request.' },
          false,
        );
      }
      const params = interaction.params as { client_id: string; scope?: string };
      const { granted, dropped } = partitionByRole(
        viewer.role,
        String(params.scope ?? '')
          .split(' ')
          .filter(Boolean),
      );
      const grant =
        (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
        new provider.Grant({ accountId: viewer.id, clientId: params.client_id });
      if (granted.length) grant.addOIDCScope(granted.join(' '));
      if (dropped.length) grant.rejectOIDCScope(dropped.join(' '));
      const missing = (interaction.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>;
      for (const resource of Object.keys(missing)) {
        if (granted.length) grant.addResourceScope(resource, granted.join(' '));
        if (dropped.length) grant.rejectResourceScope(resource, dropped.join(' '));
      }
      const grantId = await grant.save();
      return finish(request, reply, { consent: { grantId } }, true);
    },
  );
}
