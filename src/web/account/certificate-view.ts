import type { CertificateVerification } from '../../areas/certificates/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';

/** The public verification page of a certificate: what it certifies, whether it still stands, and its PDF. */
export function certificateView(opts: {
  certificate: CertificateVerification;
  schoolName: string;
  issuedOn: string;
  revokedOn: string | undefined;
  pdfPath: string;
}): SafeHtml {
  const { certificate } = opts;
  const status = opts.revokedOn
    ? html`<p class="error" role="status"><strong>Revoked.</strong> ${opts.schoolName} revoked this certificate on
${opts.revokedOn}${certificate.revoked_reason ? html`: ${certificate.revoked_reason}` : ''}.</p>`
    : html`<p class="notice" role="status"><strong>Valid.</strong> This certificate was issued by ${opts.schoolName}.</p>`;
  return html`${status}
<dl class="certificate">
<dt>Awarded to</dt><dd>${certificate.recipient_name}</dd>
<dt>For completing</dt><dd>${certificate.course_title}</dd>
<dt>Issued by</dt><dd>${opts.schoolName}</dd>
<dt>Issued on</dt><dd><time datetime="${certificate.issued_at}">${opts.issuedOn}</time></dd>
</dl>
<p><a href="${opts.pdfPath}">Download the certificate (PDF)</a></p>`;
}
