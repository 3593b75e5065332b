import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../http/errors.ts';
import { SignInForm } from '../../identity/schema.ts';
import type { SignInService } from '../../identity/signin.ts';
import { html } from '../../text/html.ts';
import { formProblems, safeReturnTo } from '../shared/forms.ts';
import { csrfField, errorSummary, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, PageQuery, Text } from '../shared/page-schemas.ts';
import type { BrowserSessions } from '../shared/viewer.ts';

/** The sign-in form; after signing in, the browser goes to `returnTo` (a path on this site). */
export function signInForm(csrf: string, returnTo: string, email = '', message?: string) {
  return html`${errorSummary(message)}
<form method="post" action="/signin">
${csrfField(csrf)}
<input type="hidden" name="return_to" value="${returnTo}">
${field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'username' })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' })}
<p><button type="submit">Sign in</button></p>
</form>
<p><a href="/password/forgot">Forgot your password?</a></p>
<p>New here? <a href="/signup${returnTo !== '/' ? `?return_to=${encodeURIComponent(returnTo)}` : ''}">Create an account</a>.</p>`;
}

export function registerSignInPages(
  fastify: FastifyInstance,
  deps: { signin: SignInService; browser: BrowserSessions; render: PageRenderer },
) {
  const { render } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };
  const querystring = PageQuery({ return_to: Type.Optional(Text()), reauth: Type.Optional(Text(10)) });

  app.get('/signin', { config, schema: { querystring } }, async (request, reply) => {
    const returnTo = safeReturnTo(request.query.return_to);
    // reauth=1: an app asked for a fresh sign-in (prompt=login or max_age), so the password is asked even when signed in.
    const reauth = request.query.reauth === '1';
    if (request.viewer && !reauth) return reply.redirect(returnTo, 303);
    const message = reauth ? 'The app asked you to confirm your password.' : undefined;
    return render(
      request,
      reply,
      'Sign in',
      signInForm(reply.generateCsrf(), returnTo, request.viewer?.email ?? '', message),
    );
  });

  const signInRoute = { config, schema: { body: SignInForm }, attachValidation: true, preHandler: app.csrfProtection };
  app.post('/signin', signInRoute, async (request, reply) => {
    if (formProblems(request)) {
      return render(
        request,
        reply,
        'Sign in',
        signInForm(reply.generateCsrf(), '/', '', 'Enter your email and password.'),
        400,
      );
    }
    const form = request.body;
    const returnTo = safeReturnTo(form.return_to);
    try {
      const user = await deps.signin.signIn({
        email: form.email,
        password: form.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      await deps.browser.start(request, reply, user.id);
      return reply.redirect(returnTo, 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply.headers(error.headers);
      return render(
        request,
        reply,
        'Sign in',
        signInForm(reply.generateCsrf(), returnTo, form.email, error.message),
        error.status === 403 ? 401 : error.status,
      );
    }
  });

  app.get('/signout', { config }, async (request, reply) => {
    if (!request.viewer) return reply.redirect('/signin', 303);
    return render(
      request,
      reply,
      'Sign out',
      html`<form method="post" action="/signout">${csrfField(reply.generateCsrf())}<p><button type="submit">Sign out</button></p></form>`,
    );
  });

  app.post(
    '/signout',
    { config, schema: { body: ButtonBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      await deps.browser.end(request, reply);
      return reply.redirect('/signin', 303);
    },
  );
}
