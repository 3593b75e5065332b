import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { CertificatesService } from '../../areas/certificates/service.ts';
import { errors } from '../../http/errors.ts';
import { schoolDates } from '../../text/dates.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { Key } from '../shared/page-schemas.ts';
import { certificateView } from './certificate-view.ts';

type SchoolFacts = () => Promise<{ name: string; locale: string; timezone: string } | undefined>;

/**
 * A certificate's public verification page and its PDF, for anyone who has its unguessable code (the student shares
 * the link). Unknown codes are 404. Kept out of search engines: a certificate is shared on purpose, not listed.
 */
export function registerCertificatePages(
  fastify: FastifyInstance,
  deps: { certificates: CertificatesService; school: SchoolFacts; baseUrl: string; render: PageRenderer },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/certificates/:file',
    { schema: { params: Type.Object({ file: Key }) }, config: { page: true } },
    async (request, reply) => {
      const pdf = request.params.file.endsWith('.pdf');
      const code = pdf ? request.params.file.slice(0, -4) : request.params.file;
      const certificate = await deps.certificates.verify(code);
      if (!certificate) throw errors.notFound('certificate');
      const school = await deps.school();
      const date = schoolDates(school?.locale, school?.timezone).day;
      const schoolName = school?.name ?? 'Lyceum';
      reply.header('x-robots-tag', 'noindex');
      if (pdf) {
        // pdfkit and its fonts are loaded with the first certificate asked for, not at start.
        const { certificatePdf } = await import('../../areas/certificates/pdf.ts');
        const body = await certificatePdf({
          certificate,
          schoolName,
          verificationUrl: `${deps.baseUrl}/certificates/${code}`,
          issuedOn: date(certificate.issued_at),
        });
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="certificate-${code}.pdf"`)
          .header('cache-control', 'no-cache')
          .send(body);
      }
      const body = certificateView({
        certificate,
        schoolName,
        issuedOn: date(certificate.issued_at),
        revokedOn: certificate.revoked_at ? date(certificate.revoked_at) : undefined,
        pdfPath: `/certificates/${code}.pdf`,
      });
      return deps.render(request, reply, 'Certificate of completion', body);
    },
  );
}
