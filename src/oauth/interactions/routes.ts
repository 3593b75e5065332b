import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction, InteractionResults } from 'oidc-provider';
import { ApiError } from '../../http/errors.ts';
import { OAUTH_PATHS } from '../../security/oauth-endpoints.ts';
import type { Role } from '../../security/roles.ts';
import { partitionByRole } from '../../security/scopes.ts';
import type { Clock } from '../../time/clock.ts';
import { signInForm } from '../../web/account/signin-page.ts';
import type { PageRenderer } from '../../web/shared/page-context.ts';
import { INTERACTION_TTL_SECONDS } from '../provider.ts';
import { clearProviderSession } from '../provider-session.ts';
import { formActionSourceFor, withFormAction } from '../redirect-csp.ts';
import { visibleClientName } from '../registration.ts';
import { consentPage } from './consent-page.ts';

type Params = { uid: string };

/** How long a note of when a fresh sign-in was asked for stays good: the life of an interaction. */
const INTERACTION_NOTE_MS = INTERACTION_TTL_SECONDS * 1000;

/**
 * The provider's login and consent prompts, on the school's own pages. Login reuses the school's browser session
 * (no second password prompt when signed in); consent shows only what the user's role may grant.
 */
export function registerInteractionRoutes(
  app: FastifyInstance,
  deps: { provider: () => Provider; render: PageRenderer; defaultResource: string; clock: Clock },
) {
  const { render } = deps;
  const nowMs = () => deps.clock.now().getTime();
  const config = { page: true };

  const details = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await deps.provider().interactionDetails(request.raw, reply.raw);
    } catch {
      throw new ApiError(
        'not_found',
        'This sign-in request has expired or was already answered; start again from the app.',
      );
    }
  };

  type AuthorizationParams = {
    client_id: string;
    redirect_uri: string;
    scope?: string;
    prompt?: string;
    max_age?: string | number;
    resource?: string | string[];
  };

  /**
   * The login the school's session stands for, or undefined when the app asks for a fresher one: auth_time is when the
   * user last entered their password, and prompt=login and max_age demand a newer one. The sign-in page sends the user
   * back with a signed note of when we asked (`reauth_after`), so the new sign-in is recognised.
   */
  const currentLogin = (request: FastifyRequest, interaction: Interaction, note: string | undefined) => {
    const params = interaction.params as AuthorizationParams;
    const signedInAt = Date.parse(request.sessionCreatedAt ?? '') || 0;
    // The note names this interaction and is as young as one: an old note, or one made for another authorization,
    // must not stand in for the fresh sign-in that prompt=login or max_age demand.
    const unsigned = note ? request.unsignCookie(note) : undefined;
    const [noteUid, noteAt] = unsigned?.valid && unsigned.value ? unsigned.value.split(':') : [];
    const noted = Number(noteAt);
    const askedAt =
      noteUid === interaction.uid && Number.isFinite(noted) && nowMs() - noted < INTERACTION_NOTE_MS
        ? noted
        : undefined;
    const maxAge = params.max_age === undefined ? undefined : Number(params.max_age);
    const asked = interaction.prompt.reasons.includes('login_prompt') || String(params.prompt ?? '').includes('login');
    const fresh = askedAt !== undefined && signedInAt > askedAt;
    const stale = !fresh && (asked || (maxAge !== undefined && nowMs() - signedInAt > maxAge * 1000));
    return stale || !request.viewer ? undefined : { accountId: request.viewer.id, ts: Math.floor(signedInAt / 1000) };
  };

  /** The requested scopes split into what the user's role may grant and what it may not. */
  const scopesFor = (role: Role, params: AuthorizationParams) =>
    partitionByRole(
      role,
      String(params.scope ?? '')
        .split(' ')
        .filter(Boolean),
    );

  const finish = async (request: FastifyRequest, reply: FastifyReply, result: InteractionResults, merge: boolean) => {
    const url = await deps
      .provider()
      .interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    return reply.redirect(url, 303);
  };

  app.get<{ Params: Params; Querystring: { reauth_after?: string } }>(
    '/oauth/interaction/:uid',
    { config },
    async (request, reply) => {
      const interaction = await details(request, reply);
      const viewer = request.viewer;
      // Where the sign-in page returns to, with a signed note of when it was asked for (see currentLogin).
      const back = () =>
        `/oauth/interaction/${interaction.uid}?reauth_after=${encodeURIComponent(reply.signCookie(`${interaction.uid}:${nowMs()}`))}`;
      // Nobody signed in: the sign-in form is shown right here (one redirect fewer than sending the browser to
      // /signin; the provider's interaction cookie is scoped to this path), and it returns here once signed in.
      if (!viewer) return render(request, reply, 'Sign in', signInForm(reply.generateCsrf(), back()));
      const backAfterSignIn = () => reply.redirect(`/signin?reauth=1&return_to=${encodeURIComponent(back())}`, 303);
      const params = interaction.params as AuthorizationParams;
      if (interaction.session?.accountId && interaction.session.accountId !== viewer.id) {
        // The provider's browser session belongs to someone who signed out since: forget it and start this
        // authorization again for the person now signed in.
        clearProviderSession(reply);
        const restart = new URLSearchParams();
        for (const [key, value] of Object.entries(params)) if (value !== undefined) restart.set(key, String(value));
        return reply.redirect(`${OAUTH_PATHS.authorization}?${restart}`, 303);
      }
      const client = await deps.provider().Client.find(params.client_id);
      if (!client) throw new ApiError('not_found', 'The app that sent this request no longer exists.');
      const loginPending = interaction.prompt.name === 'login';
      if (loginPending) {
        const login = currentLogin(request, interaction, request.query.reauth_after);
        if (!login) return backAfterSignIn();
        // A public client is asked for consent every time (provider.ts), so its consent form is shown now and answers
        // both prompts at once, instead of a round trip through the provider between them. Other clients may hold
        // a grant already: the provider decides after the login.
        if (client.clientAuthMethod !== 'none') return finish(request, reply, { login }, false);
      }
      const { granted, dropped } = scopesFor(viewer.role, params);
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
          ...(loginPending && request.query.reauth_after ? { reauthAfter: request.query.reauth_after } : {}),
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
      const body = (request.body ?? {}) as Record<string, unknown>;
      const extra = Object.keys(body).filter((k) => k !== '_csrf' && k !== 'decision' && k !== 'reauth_after');
      if (extra.length || (body.decision !== 'allow' && body.decision !== 'deny')) {
        throw new ApiError('invalid_request', 'Answer with the Allow or Deny button.');
      }
      // The form answers the login prompt too when it was shown in its place (see the GET above).
      const loginPending = interaction.prompt.name === 'login';
      const login = loginPending
        ? currentLogin(request, interaction, typeof body.reauth_after === 'string' ? body.reauth_after : undefined)
        : undefined;
      // The provider's session, if it has one yet, is the signed-in user's; and the prompt is one this form answers.
      const sessionAccount = interaction.session?.accountId;
      const sameUser = sessionAccount ? sessionAccount === viewer?.id : loginPending;
      const answerable = loginPending ? login !== undefined : interaction.prompt.name === 'consent';
      if (!viewer || !sameUser || !answerable) {
        throw new ApiError(
          'invalid_request',
          'This consent form no longer matches your sign-in; start again from the app.',
        );
      }
      if (body.decision === 'deny') {
        return finish(
          request,
          reply,
          { error: 'access_denied', error_description: 'The user denied the request.' },
          false,
        );
      }
      const params = interaction.params as AuthorizationParams;
      const { granted, dropped } = scopesFor(viewer.role, params);
      const grant =
        (interaction.grantId ? await deps.provider().Grant.find(interaction.grantId) : undefined) ??
        new (deps.provider().Grant)({ accountId: viewer.id, clientId: params.client_id });
      if (granted.length) grant.addOIDCScope(granted.join(' '));
      if (dropped.length) grant.rejectOIDCScope(dropped.join(' '));
      // At the consent prompt the provider names the resources still missing scopes; answered early, at the login
      // prompt, they are the ones the request names, or the default one (provider.ts, resourceIndicators).
      const missing = loginPending
        ? [params.resource ?? deps.defaultResource].flat()
        : Object.keys((interaction.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>);
      for (const resource of missing) {
        if (granted.length) grant.addResourceScope(resource, granted.join(' '));
        if (dropped.length) grant.rejectResourceScope(resource, dropped.join(' '));
      }
      const grantId = await grant.save();
      return finish(request, reply, { ...(login ? { login } : {}), consent: { grantId } }, true);
    },
  );
}
