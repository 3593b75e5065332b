import type { ApiError } from '../../http/errors.ts';
import { html } from '../../text/html.ts';
import { layout, type PageContext } from './layout.ts';

const TITLES: Record<number, string> = {
  400: 'Something is wrong with this request',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

export function renderErrorPage(
  error: ApiError,
  ctx: PageContext = { schoolName: undefined, viewer: undefined },
): string {
  const title = TITLES[error.status] ?? 'Something went wrong';
  return layout(ctx, title, html`<p role="alert">${error.message}</p><p><a href="/">Back to the school</a></p>`);
}
