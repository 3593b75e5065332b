import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { SignUpForm } from '../../identity/schema.ts';
import type { SignInService } from '../../identity/signin.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html } from '../../text/html.ts';
import { parseForm, safeReturnTo } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import type { BrowserSessions } from '../shared/viewer.ts';

function signUpForm(
  csrf: string,
  returnTo: string,
  values: { name?: string; email?: string },
  message?: string,
  problems: FieldProblem[] = [],
) {
  return html`${errorSummary(message, problems)}
<form method="post" action="/signup">
${csrfField(csrf)}
<input type="hidden" name="return_to" value="${returnTo}">
${field({ name: 'name', label: 'Name', value: values.name, autocomplete: 'name' })}
${field({ name: 'email', label: 'Email', type: 'email', value: values.email, autocomplete: 'email' })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH })}
<p><button type="submit">Create account</button></p>
</form>
<p>Already have an account? <a href="/signin">Sign in</a>.</p>`;
}

const closed = html`<p>This school does not accept new accounts right now. <a href="/signin">Sign in</a> if you already have one.</p>`;

export function registerSignUpPage(
  app: FastifyInstance,
  deps: { signin: SignInService; browser: BrowserSessions; render: PageRenderer },
) {
  const { render } = deps;
  const config = { page: true };

  app.get<{ Querystring: { return_to?: string } }>('/signup', { config }, async (request, reply) => {
    if (!(await deps.signin.signupEnabled())) return render(request, reply, 'Create account', closed, 403);
    return render(
      request,
      reply,
      'Create account',
      signUpForm(reply.generateCsrf(), safeReturnTo(request.query.return_to), {}),
    );
  });

  app.post('/signup', { config, preHandler: app.csrfProtection }, async (request, reply) => {
    if (!(await deps.signin.signupEnabled())) return render(request, reply, 'Create account', closed, 403);
    const body = (request.body ?? {}) as { name?: string; email?: string; return_to?: string };
    const returnTo = safeReturnTo(body.return_to);
    const parsed = parseForm<SignUpForm>(SignUpForm, request.body);
    if (!parsed.ok) {
      return render(
        request,
        reply,
        'Create account',
        signUpForm(reply.generateCsrf(), returnTo, body, undefined, parsed.problems),
        400,
      );
    }
    try {
      const user = await deps.signin.signUp({ ...parsed.value, ip: request.ip });
      await deps.browser.start(request, reply, user.id);
      return reply.redirect(returnTo, 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply.headers(error.headers);
      return render(
        request,
        reply,
        'Create account',
        signUpForm(reply.generateCsrf(), returnTo, body, error.message),
        error.status,
      );
    }
  });
}
