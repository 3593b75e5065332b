import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import {
  Certificate,
  CertificateIdParams,
  CertificateListQuery,
  CertificatePage,
  CertificateRevoke,
} from './schema.ts';
import type { CertificatesService } from './service.ts';

const tags = ['certificates'];
// Certificates are students' records: the students scopes guard them (a student's students:read sees their own).
const read = { scope: 'students:read' } as const;
const write = { scope: 'students:write' } as const;

export function certificatesRoutes(fastify: FastifyInstance, service: CertificatesService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/certificates', {
    config: read,
    schema: {
      operationId: 'listCertificates',
      tags,
      summary: 'List certificates of completion (a student sees their own)',
      querystring: CertificateListQuery,
      response: { 200: CertificatePage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/certificates/:id', {
    config: read,
    schema: {
      operationId: 'getCertificate',
      tags,
      summary: 'Get a certificate',
      params: CertificateIdParams,
      response: { 200: Certificate, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/certificates/:id/revoke', {
    config: write,
    schema: {
      operationId: 'revokeCertificate',
      tags,
      summary: 'Revoke a certificate (its verification page then says so)',
      params: CertificateIdParams,
      body: CertificateRevoke,
      response: { 200: Certificate, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) => service.revoke(request.params.id, request.body),
  });
}
