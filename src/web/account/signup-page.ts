import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../http/errors.ts';
import { SignUpForm } from '../../identity/schema.ts';
import type { SignInService } from '../../identity/signin.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html } from '../../text/html.ts';
import { formProblems, safeReturnTo, typed } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { PageQuery, Text } from '../shared/page-schemas.ts';
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
  fastify: FastifyInstance,
  deps: { signin: SignInService; browser: BrowserSessions; render: PageRenderer },
) {
  const { render } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };
  const querystring = PageQuery({ return_to: Type.Optional(Text()) });

  app.get('/signup', { config, schema: { querystring } }, async (request, reply) => {
    if (!(await deps.signin.signupEnabled())) return render(request, reply, 'Create account', closed, 403);
    return render(
      request,
      reply,
      'Create account',
      signUpForm(reply.generateCsrf(), safeReturnTo(request.query.return_to), {}),
    );
  });

  const signUpRoute = { config, schema: { body: SignUpForm }, attachValidation: true, preHandler: app.csrfProtection };
  app.post('/signup', signUpRoute, async (request, reply) => {
    if (!(await deps.signin.signupEnabled())) return render(request, reply, 'Create account', closed, 403);
    const body = { name: typed(request.body, 'name'), email: typed(request.body, 'email') };
    const returnTo = safeReturnTo(typed(request.body, 'return_to'));
    const problems = formProblems(request);
    if (problems) {
      return render(
        request,
        reply,
        'Create account',
        signUpForm(reply.generateCsrf(), returnTo, body, undefined, problems),
        400,
      );
    }
    try {
      const user = await deps.signin.signUp({ ...request.body, ip: request.ip });

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
