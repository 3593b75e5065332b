import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import type { EmailVerificationService } from '../../identity/email-verification.ts';
import { ButtonForm } from '../../identity/schema.ts';
import { html } from '../../text/html.ts';
import { parseForm } from '../shared/forms.ts';
import { csrfField } from '../shared/layout.ts';
import type { PageRenderer } from '../shared/page-context.ts';

const TITLE = 'Confirm your e-mail address';

/**
 * The page a verification link opens, and (signed in) the address's state with a button that mails a new link.
 */
export function registerVerifyEmailPage(
  app: FastifyInstance,
  deps: { verification: EmailVerificationService; render: PageRenderer },
) {
  const { render, verification } = deps;
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

  app.get<{ Querystring: { token?: string } }>('/verify-email', { config }, async (request, reply) => {
    if (request.query.token === undefined) return status(request, reply);
    try {
      await verification.verify(String(request.query.token));
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

  app.post('/verify-email', { config, preHandler: app.csrfProtection }, async (request, reply) => {
    if (!parseForm(ButtonForm, request.body).ok)
      throw new ApiError('invalid_request', 'Unexpected fields in the form.');
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
  });
}
