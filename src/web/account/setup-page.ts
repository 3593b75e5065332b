import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../http/errors.ts';
import { SetupForm } from '../../identity/schema.ts';
import type { SetupService } from '../../identity/setup.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html } from '../../text/html.ts';
import { fieldLabel, formProblems, typed } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { PageQuery, Text } from '../shared/page-schemas.ts';
import type { BrowserSessions } from '../shared/viewer.ts';

type Values = Partial<Record<keyof SetupForm, string>>;

function setupForm(csrf: string, values: Values, message?: string, problems: FieldProblem[] = []) {
  return html`${errorSummary(message, problems)}
<form method="post" action="/setup">
${csrfField(csrf)}
<input type="hidden" name="token" value="${values.token ?? ''}">
<fieldset><legend>Your school</legend>
${field({ name: 'school_name', label: 'School name', value: values.school_name, autocomplete: 'organization' })}
${field({ name: 'default_currency', label: 'Default currency', value: values.default_currency ?? 'EUR' })}
${field({ name: 'timezone', label: 'Time zone', value: values.timezone ?? 'UTC' })}
</fieldset>
<fieldset><legend>Owner account</legend>
${field({ name: 'owner_name', label: 'Your name', value: values.owner_name, autocomplete: 'name' })}
${field({ name: 'owner_email', label: 'Email', type: 'email', value: values.owner_email, autocomplete: 'email' })}
${field({ name: 'owner_password', label: 'Password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH })}
</fieldset>
<p><button type="submit">Create school</button></p>
</form>`;
}

export function registerSetupPage(
  fastify: FastifyInstance,
  deps: { setup: SetupService; browser: BrowserSessions; render: PageRenderer },
) {
  const { setup, render } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };
  const querystring = PageQuery({ token: Type.Optional(Text(500)) });

  app.get('/setup', { config, schema: { querystring } }, async (request, reply) => {
    await setup.checkToken(request.query.token ?? '');
    const csrf = reply.generateCsrf();
    return render(request, reply, 'Set up your school', setupForm(csrf, { token: request.query.token }));
  });

  const setupRoute = { config, schema: { body: SetupForm }, attachValidation: true, preHandler: app.csrfProtection };
  app.post('/setup', setupRoute, async (request, reply) => {
    const keep: Values = {};
    for (const name of Object.keys(SetupForm.properties) as (keyof SetupForm)[])
      if (name !== 'owner_password') keep[name] = typed(request.body, name);
    const problems = formProblems(request);
    if (problems) {
      await setup.checkToken(keep.token ?? '');
      return render(
        request,
        reply,
        'Set up your school',
        setupForm(reply.generateCsrf(), keep, undefined, problems),
        400,
      );
    }
    try {
      const { ownerId } = await setup.complete(request.body);

      await deps.browser.start(request, reply, ownerId);
      return reply.redirect('/', 303);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_request') {
        const problems = (error.fields ?? [])
          .filter((f) => f.message !== error.message)
          .map((f) => ({
            field: fieldLabel(f.field),
            message: f.message,
          }));
        return render(
          request,
          reply,
          'Set up your school',
          setupForm(reply.generateCsrf(), keep, error.message, problems),
          400,
        );
      }
      throw error;
    }
  });
}
