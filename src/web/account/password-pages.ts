import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../http/errors.ts';
import type { PasswordResetService } from '../../identity/password-reset.ts';
import { ForgotPasswordForm, ResetPasswordForm } from '../../identity/schema.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html } from '../../text/html.ts';
import { fieldLabel, formProblems, typed } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { PageQuery, Text } from '../shared/page-schemas.ts';
import type { BrowserSessions } from '../shared/viewer.ts';

const FORGOT = 'Forgot your password?';
/** The one answer to every accepted request, whether or not an account uses the address. */
const SENT =
  'If an account uses this address, we have sent it a link to choose a new password. The link works once, for one hour. Nothing arrived? Check your spam folder, or ask again in a few minutes.';

function forgotForm(csrf: string, email = '', message?: string, problems: FieldProblem[] = []) {
  return html`${errorSummary(message, problems)}
<p>Enter the e-mail address you sign in with. We will send you a link to choose a new password.</p>
<form method="post" action="/password/forgot">
${csrfField(csrf)}
${field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'username' })}
<p><button type="submit">Send me a link</button></p>
</form>
<p><a href="/signin">Back to sign-in</a></p>`;
}

function resetForm(csrf: string, token: string, purpose: 'reset' | 'invite', problems: FieldProblem[] = []) {
  return html`${errorSummary(undefined, problems)}
<form method="post" action="/password/reset">
${csrfField(csrf)}
<input type="hidden" name="token" value="${token}">
${field({ name: 'password', label: purpose === 'invite' ? 'Your password' : 'New password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH })}
<p><button type="submit">${purpose === 'invite' ? 'Set my password and sign in' : 'Change my password and sign in'}</button></p>
</form>`;
}

const titleFor = (purpose: 'reset' | 'invite') =>
  purpose === 'invite' ? 'Choose your password' : 'Choose a new password';

/**
 * Password reset: "Forgot your password?" (the same answer whatever the address), and the page a mailed link opens
 * — also the page of an invitation's link, worded "Choose your password". Setting the password signs the person in.
 */
export function registerPasswordPages(
  fastify: FastifyInstance,
  deps: { reset: PasswordResetService; browser: BrowserSessions; render: PageRenderer },
) {
  const { render, reset } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  const linkRefused = (request: FastifyRequest, reply: FastifyReply, error: ApiError) =>
    render(request, reply, FORGOT, forgotForm(reply.generateCsrf(), '', error.message), error.status);

  app.get('/password/forgot', { config }, async (request, reply) =>
    render(request, reply, FORGOT, forgotForm(reply.generateCsrf(), request.viewer?.email ?? '')),
  );

  const forgotRoute = {
    config,
    schema: { body: ForgotPasswordForm },
    attachValidation: true,
    preHandler: app.csrfProtection,
  };
  app.post('/password/forgot', forgotRoute, async (request, reply) => {
    if (formProblems(request)) {
      const message = 'Enter the e-mail address you sign in with.';
      return render(request, reply, FORGOT, forgotForm(reply.generateCsrf(), '', message), 400);
    }
    try {
      await reset.request({ email: request.body.email, ip: request.ip });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply.headers(error.headers);
      return render(request, reply, FORGOT, forgotForm(reply.generateCsrf(), '', error.message), error.status);
    }
    return render(
      request,
      reply,
      'Check your e-mail',
      html`<p role="status">${SENT}</p><p><a href="/signin">Back to sign-in</a></p>`,
    );
  });

  const querystring = PageQuery({ token: Type.Optional(Text(500)) });
  app.get('/password/reset', { config, schema: { querystring } }, async (request, reply) => {
    const token = request.query.token ?? '';
    try {
      const purpose = await reset.check(token);
      return render(request, reply, titleFor(purpose), resetForm(reply.generateCsrf(), token, purpose));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return linkRefused(request, reply, error);
    }
  });

  const resetRoute = {
    config,
    schema: { body: ResetPasswordForm },
    attachValidation: true,
    preHandler: app.csrfProtection,
  };
  app.post('/password/reset', resetRoute, async (request, reply) => {
    const token = typed(request.body, 'token') ?? '';
    try {
      const problems = formProblems(request);
      if (problems) {
        const purpose = await reset.check(token);
        const form = resetForm(reply.generateCsrf(), token, purpose, problems);
        return render(request, reply, titleFor(purpose), form, 400);
      }
      const { userId } = await reset.complete({ token: request.body.token, password: request.body.password });

      await deps.browser.start(request, reply, userId);
      return reply.redirect('/', 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'invalid_request') {
        // The link is good and the password is not: the form again, saying why.
        const problems = (error.fields ?? []).map((f) => ({ field: fieldLabel(f.field), message: f.message }));
        const purpose = await reset.check(token);
        return render(
          request,
          reply,
          titleFor(purpose),
          resetForm(reply.generateCsrf(), token, purpose, problems),
          400,
        );
      }
      return linkRefused(request, reply, error);
    }
  });
}
