import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { SetupForm } from '../../identity/schema.ts';
import type { SetupService } from '../../identity/setup.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html } from '../../text/html.ts';
import { fieldLabel, parseForm } from '../shared/forms.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
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
  app: FastifyInstance,
  deps: { setup: SetupService; browser: BrowserSessions; render: PageRenderer },
) {
  const { setup, render } = deps;
  const config = { page: true };

  app.get<{ Querystring: { token?: string } }>('/setup', { config }, async (request, reply) => {
    await setup.checkToken(String(request.query.token ?? ''));
    const csrf = reply.generateCsrf();
    return render(request, reply, 'Set up your school', setupForm(csrf, { token: request.query.token }));
  });

  app.post('/setup', { config, preHandler: app.csrfProtection }, async (request, reply) => {
    const parsed = parseForm<SetupForm>(SetupForm, request.body);
    const body = (request.body ?? {}) as Values;
    const { owner_password: _, ...keep } = body;
    if (!parsed.ok) {
      await setup.checkToken(String(body.token ?? ''));
      return render(
        request,
        reply,
        'Set up your school',
        setupForm(reply.generateCsrf(), keep, undefined, parsed.problems),
        400,
      );
    }
    try {
      const { ownerId } = await setup.complete(parsed.value);
      await deps.browser.start(request, reply, ownerId);
      return reply.redirect('/', 303);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_request') {
        const problems = (error.fields ?? []).map((f) => ({
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
