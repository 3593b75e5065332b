import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A CSV download, streamed as its lines are made. */
export const sendCsv = (reply: FastifyReply, name: string, lines: AsyncIterable<string>) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(Readable.from(lines));
