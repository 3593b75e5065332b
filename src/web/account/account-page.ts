import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AccountService } from '../../areas/account/service.ts';
import type { SchoolService } from '../../areas/school/service.ts';
import { ApiError } from '../../http/errors.ts';
import { schoolDates } from '../../text/dates.ts';
import { html } from '../../text/html.ts';
import { fieldLabel } from '../shared/forms.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, FormBody, PageQuery, Text } from '../shared/page-schemas.ts';
import { type BrowserSessions, viewerPrincipal } from '../shared/viewer.ts';
import { type AccountPart, accountView, deleteView } from './account-view.ts';

const TITLE = 'Your account';
const SIGN_IN = '/signin?return_to=%2Faccount';
const Secret = Type.String({ maxLength: 256 });

/** The fields a refusal names, without repeating the message above them when it says the same. */
const problemsOf = (error: ApiError) =>
  (error.fields ?? [])
    .filter((f) => f.message !== error.message)
    .map((f) => ({ field: fieldLabel(f.field), message: f.message }));

/**
 * `/account`: the signed-in person's own page, for every role. Each form runs the account area's operation as the
 * person (the same rules and messages as the API), then comes back to the page saying what changed.
 */
export function registerAccountPage(
  fastify: FastifyInstance,
  deps: {
    account: AccountService;
    school: Pick<SchoolService, 'get'>;
    browser: BrowserSessions;
    render: PageRenderer;
  },
) {
  const { account, render } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  async function showPage(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { done?: string; refused?: { part: AccountPart; error: ApiError } } = {},
  ) {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect(SIGN_IN, 303);
    const principal = viewerPrincipal(viewer);
    const [me, sessions, apps, school] = await Promise.all([
      account.get(principal),
      account.listSessions(principal, request.sessionId),
      account.listConnectedApps(principal),
      deps.school.get(principal),
    ]);
    const dates = schoolDates(school.locale, school.timezone);
    const refused = extra.refused && {
      part: extra.refused.part,
      message: extra.refused.error.message,
      problems: problemsOf(extra.refused.error),
    };
    const body = accountView({
      account: me,
      sessions: sessions.data,
      apps: apps.data,
      csrf: reply.generateCsrf(),
      when: dates.dayAndTime,
      done: extra.done,
      refused,
    });
    return render(request, reply, TITLE, body, refused ? extra.refused?.error.status : 200);
  }

  /** Runs one change as the person; a refusal shows the page again with the message above the form it came from. */
  function change<B>(part: AccountPart, done: string, run: (request: FastifyRequest, body: B) => Promise<unknown>) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.viewer) return reply.redirect(SIGN_IN, 303);
      try {
        await run(request, request.body as B);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        return showPage(request, reply, { refused: { part, error } });
      }
      return reply.redirect(`/account?done=${done}`, 303);
    };
  }
  const as = (request: FastifyRequest) => viewerPrincipal(request.viewer);
  const form = <P extends Parameters<typeof FormBody>[0]>(properties: P) => ({
    config,
    schema: { body: FormBody(properties) },
    preHandler: app.csrfProtection,
  });

  app.get(
    '/account',
    { config, schema: { querystring: PageQuery({ done: Type.Optional(Text(20)) }) } },
    (request, reply) => showPage(request, reply, { done: request.query.done }),
  );

  app.post(
    '/account/name',
    form({ name: Text(200) }),
    change<{ name: string }>('name', 'name', (request, body) => account.update(as(request), { name: body.name })),
  );

  app.post(
    '/account/email',
    form({ email: Text(254), current_password: Secret }),
    change<{ email: string; current_password: string }>('email', 'email', (request, body) =>
      account.update(as(request), { email: body.email, current_password: body.current_password }),
    ),
  );

  app.post('/account/password', form({ current_password: Secret, new_password: Secret }), async (request, reply) => {
    const run = change<{ current_password: string; new_password: string }>('password', 'password', async (r, body) => {
      await account.changePassword(as(r), body);
      // Changing the password signs every browser out; this one, where it was changed, is signed in again.
      if (r.viewer) await deps.browser.start(r, reply, r.viewer.id);
    });
    return run(request, reply);
  });

  app.post(
    '/account/sessions/end',
    form({ id: Text(64) }),
    change<{ id: string }>('sessions', 'session', (request, body) => account.endSession(as(request), body.id)),
  );

  app.post(
    '/account/sessions/end-others',
    { config, schema: { body: ButtonBody }, preHandler: app.csrfProtection },
    change('sessions', 'sessions', (request) => account.endOtherSessions(as(request), request.sessionId)),
  );

  app.get('/account/export', { config }, async (request, reply) => {
    if (!request.viewer) return reply.redirect(SIGN_IN, 303);
    const data = await account.exportData(as(request));
    const day = data.exported_at.slice(0, 10);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="my-data-${day}.json"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(data, null, 2));
  });

  const deleteTitle = 'Delete your account';
  app.get('/account/delete', { config }, async (request, reply) => {
    if (!request.viewer) return reply.redirect('/signin?return_to=%2Faccount%2Fdelete', 303);
    return render(request, reply, deleteTitle, deleteView(reply.generateCsrf()));
  });

  app.post('/account/delete', form({ current_password: Secret }), async (request, reply) => {
    if (!request.viewer) return reply.redirect(SIGN_IN, 303);
    try {
      await account.deleteAccount(as(request), { current_password: request.body.current_password ?? '' });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      const problems = problemsOf(error);
      return render(
        request,
        reply,
        deleteTitle,
        deleteView(reply.generateCsrf(), problems, error.message),
        error.status,
      );
    }
    await deps.browser.end(request, reply);
    request.viewer = undefined;
    return render(
      request,
      reply,
      'Your account is deleted',
      html`<p role="status">Your account is deleted and you are signed out. Thank you for learning with us.</p><p><a href="/">Go to the school's home page</a></p>`,
    );
  });
}
