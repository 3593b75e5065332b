import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ApiError } from '../../http/errors.ts';
import type { EmailVerificationService } from '../../identity/email-verification.ts';
import { html } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, PageQuery, Text } from '../shared/page-schemas.ts';

const TITLE = 'Confirm your e-mail address';

/**
 * The page a verification link opens, and (signed in) the address's state with a button that mails a new link.
 */
export function registerVerifyEmailPage(
  fastify: FastifyInstance,
  deps: { verification: EmailVerificationService; render: PageRenderer },
) {
  const { render, verification } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { page: true };

  const resendForm = (reply: FastifyReply) =>
    html`<form method="post" action="/verify-email">${csrfField(reply.generateCsrf())}<p><button type="submit">Send me a new link</button></p></form>`;

  const status = (request: FastifyRequest, reply: FastifyReply, message?: string, code = 200) => {
    const viewer = request.viewer;
    if (!viewer) return reply.redirect('/signin?return_to=%2Fverify-email', 303);
    const body =
      viewer.email_verified === 1
        ? html`<p role="status">Your address ${viewer.email} is confirmed.</p>`
        : html`${message ? html`<p role="alert">${message}</p>` : ''}<p>Your address ${viewer.email} is not confirmed yet: open the link we mailed to it.</p>${resendForm(reply)}`;
    return render(request, reply, TITLE, body, code);
  };

  const querystring = PageQuery({ token: Type.Optional(Text(500)) });
  app.get('/verify-email', { config, schema: { querystring } }, async (request, reply) => {
    if (request.query.token === undefined) return status(request, reply);
    try {
      await verification.verify(request.query.token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (request.viewer && request.viewer.email_verified !== 1) return status(request, reply, error.message, 404);
      return render(request, reply, TITLE, html`<p role="alert">${error.message}</p>`, 404);
    }
    return render(
      request,
      reply,
      TITLE,
      html`<p role="status">Thank you: your e-mail address is confirmed.</p><p><a href="/">Go to the school</a></p>`,
    );
  });

  app.post(
    '/verify-email',
    { config, schema: { body: ButtonBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = request.viewer;
      if (!viewer) return reply.redirect('/signin?return_to=%2Fverify-email', 303);
      try {
        await verification.resend(viewer.id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        reply.headers(error.headers);
        return status(request, reply, error.message, error.status);
      }
      return render(
        request,
        reply,
        TITLE,
        html`<p role="status">We sent a new link to ${viewer.email}. It works for 7 days.</p>`,
      );
    },
  );
}
