import type { Account } from '../../areas/account/schema.ts';
import type { ConnectedApp } from '../../areas/oauth-port.ts';
import { PASSWORD_MIN_LENGTH } from '../../security/passwords.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField, errorSummary, type FieldProblem, field } from '../shared/layout.ts';

/** Which part of the page a refusal belongs to, so its message stands above the form that was sent. */
export type AccountPart = 'name' | 'email' | 'password' | 'sessions';

export type AccountSessionRow = { id: string; started_at: string; last_seen_at: string; current: boolean };

export type AccountPageData = {
  account: Account;
  sessions: AccountSessionRow[];
  apps: ConnectedApp[];
  csrf: string;
  /** How times are written: the school's locale and time zone. */
  when: (timestamp: string) => string;
  done?: string;
  refused?: { part: AccountPart; message: string; problems: FieldProblem[] };
};

/** What a finished change says at the top of the page (the `done` of the address it returns to). */
export const DONE = {
  name: 'Your name is changed.',
  email: 'Almost done: open the link we sent to your new address. Until then you sign in with your current one.',
  password: 'Your password is changed. Every other browser was signed out.',
  session: 'That browser is signed out.',
  sessions: 'Every other browser is signed out.',
} as const;

const refusal = (data: AccountPageData, part: AccountPart) =>
  data.refused?.part === part ? errorSummary(data.refused.message, data.refused.problems) : html``;

function sessionsView(data: AccountPageData): SafeHtml {
  const others = data.sessions.filter((s) => !s.current);
  const row = (s: AccountSessionRow) =>
    html`<li><strong>${s.current ? 'This browser' : 'Another browser'}</strong>
<span class="meta">Signed in ${data.when(s.started_at)}, last active ${data.when(s.last_seen_at)}</span>${
      s.current
        ? ''
        : html`<form method="post" action="/account/sessions/end">${csrfField(data.csrf)}<input type="hidden" name="id" value="${s.id}"><button type="submit" class="secondary">Sign out this browser</button></form>`
    }</li>`;
  return html`<section class="account-part" aria-labelledby="sessions-h"><h2 id="sessions-h">Where you are signed in</h2>
${refusal(data, 'sessions')}
<ul class="account-list">${data.sessions.map(row)}</ul>
${
  others.length
    ? html`<form method="post" action="/account/sessions/end-others">${csrfField(data.csrf)}<button type="submit" class="secondary">Sign out everywhere else</button></form>`
    : html`<p class="meta">You are signed in only here.</p>`
}</section>`;
}

function appsView(apps: ConnectedApp[]): SafeHtml {
  const names = apps.map((a) => a.client_name);
  return html`<section class="account-part" aria-labelledby="apps-h"><h2 id="apps-h">Connected apps</h2>
<p>${
    apps.length === 0
      ? 'No app can reach your account.'
      : apps.length === 1
        ? html`One app can reach your account: ${names[0]}.`
        : html`${apps.length} apps can reach your account: ${names.join(', ')}.`
  }</p>
${apps.length ? html`<p><a href="/account/apps">See what each app may do, or disconnect one</a></p>` : ''}</section>`;
}

/** The signed-in person's own page: who they are, how they sign in, where, and their data. */
export function accountView(data: AccountPageData): SafeHtml {
  const { account, csrf } = data;
  const done = data.done && data.done in DONE ? DONE[data.done as keyof typeof DONE] : undefined;
  return html`${done ? html`<p class="notice" role="status">${done}</p>` : ''}
<section class="account-part" aria-labelledby="name-h"><h2 id="name-h">Your name</h2>
${refusal(data, 'name')}
<form method="post" action="/account/name">${csrfField(csrf)}
${field({ name: 'name', label: 'Name', value: account.name, autocomplete: 'name' })}
<p><button type="submit">Save name</button></p></form></section>

<section class="account-part" aria-labelledby="email-h"><h2 id="email-h">E-mail address</h2>
<p>You sign in with <strong>${account.email}</strong>${account.email_verified ? '' : html` (not confirmed yet: <a href="/verify-email">confirm it</a>)`}.</p>
${account.pending_email ? html`<p class="warning">We sent a link to <strong>${account.pending_email}</strong>. Open it to start using that address.</p>` : ''}
${refusal(data, 'email')}
<form method="post" action="/account/email">${csrfField(csrf)}
${field({ name: 'email', label: 'New e-mail address', type: 'email', autocomplete: 'email' })}
${field({ name: 'current_password', id: 'f-email-password', label: 'Your current password', type: 'password', autocomplete: 'current-password' })}
<p class="meta">We send a link to the new address; your account moves there when you open it. Your current address is told.</p>
<p><button type="submit">Change e-mail address</button></p></form></section>

<section class="account-part" aria-labelledby="password-h"><h2 id="password-h">Password</h2>
${refusal(data, 'password')}
<form method="post" action="/account/password">${csrfField(csrf)}
${field({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password' })}
${field({ name: 'new_password', label: 'New password', type: 'password', autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH })}
<p class="meta">At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words are easy to remember and hard to guess.</p>
<p><button type="submit">Change password</button></p></form></section>

${sessionsView(data)}
${appsView(data.apps)}

<section class="account-part" aria-labelledby="data-h"><h2 id="data-h">Your data</h2>
<p>Download everything the school keeps about you: your profile, courses and progress, orders, certificates and the forms you sent, in one file (JSON).</p>
<p><a class="button" href="/account/export" download>Download my data</a></p></section>

<section class="account-part" aria-labelledby="delete-h"><h2 id="delete-h">Delete your account</h2>
<p>Your name and e-mail address are erased and you can no longer sign in. Orders stay in the school's books, as the law requires, without your name.</p>
<p><a href="/account/delete">Delete my account…</a></p></section>`;
}

/** The confirmation a deletion asks for: what happens, and the password. */
export function deleteView(csrf: string, problems: FieldProblem[] = [], message?: string): SafeHtml {
  return html`${errorSummary(message, problems)}
<p>This cannot be undone. When you delete your account:</p>
<ul>
<li>your name and e-mail address are erased, and you are signed out everywhere;</li>
<li>your comments lose their words, your certificates are withdrawn, and the forms you sent are deleted;</li>
<li>apps you connected lose access;</li>
<li>your seats at events that have not happened yet go to the next people waiting;</li>
<li>the e-mails the school kept for you and the record of your sign-ins are deleted;</li>
<li>your orders stay in the school's books, as the law requires, under "Deleted account".</li>
</ul>
<p>You may want to <a href="/account/export" download>download your data</a> first.</p>
<form method="post" action="/account/delete">${csrfField(csrf)}
${field({ name: 'current_password', label: 'Your password, to confirm', type: 'password', autocomplete: 'current-password' })}
<p><button type="submit" class="danger">Delete my account for good</button> <a href="/account">Keep my account</a></p></form>`;
}
