import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../http/etag.ts';
import type { GeneratedDocument } from './documents.ts';

/**
 * Sends a generated document with its validators, or 304 when the client already has these bytes. The ETag alone
 * decides: Last-Modified says when this instance first produced the bytes, which another instance may date later for
 * older bytes (and a change within the same second keeps the date), so If-Modified-Since is not evaluated.
 */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, document: GeneratedDocument, type: string) {
  reply
    .header('etag', document.etag)
    .header('last-modified', document.lastModified.toUTCString())
    // Stored, but revalidated every time: the catalog can change at any moment.
    .header('cache-control', 'public, no-cache');
  if (etagMatches(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
  return reply.type(type).send(document.body);
}
