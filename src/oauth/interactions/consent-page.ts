import { SCOPES, type Scope } from '../../security/scopes.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../../web/shared/layout.ts';

export function consentPage(opts: {
  uid: string;
  csrf: string;
  clientName: string;
  clientId: string;
  redirectUri: string;
  granted: Scope[];
  dropped: string[];
  viewerName: string;
  /** The signed note of when a fresh sign-in was asked for, carried to the answer (see interactions/routes.ts). */
  reauthAfter?: string;
}): SafeHtml {
  const redirect = new URL(opts.redirectUri);
  return html`<p><strong>${opts.clientName}</strong> wants to access your account at this school.</p>
<p class="warning">This app registered itself. It is <strong>not verified by the school</strong>: allow it only if you started it yourself.</p>
<dl>
<dt>Signed in as</dt><dd>${opts.viewerName}</dd>
<dt>App id</dt><dd><code>${opts.clientId}</code></dd>
<dt>After you answer, you return to</dt><dd><code>${redirect.protocol}//${redirect.hostname}</code> on port <code>${redirect.port || (redirect.protocol === 'https:' ? '443' : '80')}</code></dd>
</dl>
<h2>It will be able to</h2>
<ul class="scopes">${opts.granted.map((scope) => html`<li><span>${SCOPES[scope].description}</span> <code>${scope}</code></li>`)}</ul>
${
  opts.dropped.length
    ? html`<p>Also requested, but not available to your account, so not granted: ${opts.dropped.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`)}.</p>`
    : ''
}
<form method="post" action="/oauth/interaction/${opts.uid}/consent">
${csrfField(opts.csrf)}
${opts.reauthAfter ? html`<input type="hidden" name="reauth_after" value="${opts.reauthAfter}">` : ''}
<p><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></p>
</form>`;
}
