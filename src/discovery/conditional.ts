import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GeneratedDocument } from './documents.ts';

/** Whether the client's copy is current (RFC 9110 §13.1): If-None-Match decides when sent, else If-Modified-Since. */
function notModified(request: FastifyRequest, document: GeneratedDocument): boolean {
  const match = request.headers['if-none-match'];
  if (match !== undefined) {
    return match
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === document.etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && document.lastModified.getTime() <= since;
}

/** Sends a generated document with its validators, or 304 when the client already has these bytes. */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, document: GeneratedDocument, type: string) {
  reply
    .header('etag', document.etag)
    .header('last-modified', document.lastModified.toUTCString())
    // Stored, but revalidated every time: the catalog can change at any moment.
    .header('cache-control', 'public, no-cache');
  if (notModified(request, document)) return reply.code(304).send();
  return reply.type(type).send(document.body);
}
