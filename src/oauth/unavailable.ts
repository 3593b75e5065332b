import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { unavailableDependency } from '../db/unavailable.ts';
import { errors } from '../http/errors.ts';
import { renderErrorPage } from '../web/shared/error-page.ts';

/**
 * oidc-provider answers any failure of its storage with 500 server_error (or sends the browser back to the app with
 * error=server_error). When the failure is the database or Redis being unreachable, the school's answer is the same
 * as everywhere else: 503 service_unavailable in the error shape, with Retry-After. A browser at the authorization
 * endpoint gets the 503 page instead of being sent back to the app, so the person can simply try again in a moment.
 *
 * The provider reports the failure ('server_error', with the request's context) before its answer leaves; this
 * middleware, around every provider route, then replaces the answer.
 */
export function answerUnavailableWith503(
  provider: Provider,
  log: (fields: Record<string, unknown>, message: string) => void,
) {
  const unavailable = new WeakSet<KoaContextWithOIDC>();
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    const unreachable = unavailableDependency(error);
    if (!unreachable) return;
    unavailable.add(ctx);
    log(
      { unreachable, path: ctx.path, err: { message: (error as Error).message } },
      'oauth request failed: unreachable',
    );
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!unavailable.has(ctx as KoaContextWithOIDC)) return;
    const error = errors.temporarilyUnavailable();
    const page = ctx.method === 'GET' && ctx.path.startsWith('/oauth/');
    ctx.remove('location');
    ctx.status = error.status;
    ctx.set(error.headers);
    ctx.set('cache-control', 'no-store');
    if (page) {
      ctx.type = 'html';
      ctx.body = renderErrorPage(error);
    } else {
      ctx.type = 'json';
      ctx.body = error.toBody();
    }
  });
}

/** Whether `error` is an unreachable dependency's, which answerUnavailableWith503 logs and answers itself. */
export const isUnavailable = (error: unknown) => unavailableDependency(error) !== undefined;
