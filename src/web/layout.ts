import type { User } from '../identity/schema.ts';
import { html, type SafeHtml } from './html.ts';

export type PageContext = { schoolName: string | undefined; viewer: User | undefined };

export function layout(ctx: PageContext, title: string, body: SafeHtml): string {
  const school = ctx.schoolName ?? 'Lyceum';
  const nav = ctx.viewer
    ? html`<span>Signed in as ${ctx.viewer.name}</span> <a href="/signout">Sign out</a>`
    : html`<a href="/signin">Sign in</a> <a href="/signup">Create account</a>`;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${school}</title>
<link rel="stylesheet" href="/assets/site.css">
</head>
<body>
<header><a class="brand" href="/">${school}</a><nav aria-label="Account">${nav}</nav></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
<footer><p>Powered by Lyceum</p></footer>
</body>
</html>`}`;
}

export type FieldProblem = { field: string; message: string };

export function errorSummary(message: string | undefined, problems: FieldProblem[] = []): SafeHtml {
  if (!message && problems.length === 0) return html``;
  return html`<div class="error" role="alert"><p>${message ?? 'Please correct the fields below.'}</p>${
    problems.length ? html`<ul>${problems.map((p) => html`<li>${p.field}: ${p.message}</li>`)}</ul>` : ''
  }</div>`;
}

export function field(opts: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
}): SafeHtml {
  const id = `f-${opts.name}`;
  return html`<p><label for="${id}">${opts.label}</label>
<input id="${id}" name="${opts.name}" type="${opts.type ?? 'text'}" value="${opts.value ?? ''}"${
    opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ''
  }${opts.required === false ? '' : html` required`}${opts.minlength ? html` minlength="${opts.minlength}"` : ''}></p>`;
}

export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;
