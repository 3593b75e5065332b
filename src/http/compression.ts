import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: the encoding would cost more than it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Every JSON, text and HTML answer is compressed with br or gzip when the client accepts it (@fastify/compress,
 * before any route is registered: it attaches itself to each route as it is added). Server-sent events are left
 * alone by the plugin, and hijacked replies (the authorization server's) never reach it.
 */
export async function installCompression(app: FastifyInstance) {
  // A byte download that offers ranges is sent as stored: its Content-Length, ETag and ranges are of those bytes.
  // Global hooks run before the plugin's per-route one, and x-no-compression is the plugin's documented opt-out.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.getHeader('accept-ranges') === 'bytes') request.headers['x-no-compression'] = '1';
    return payload;
  });
  await app.register(compress, {
    globalCompression: true,
    // Request bodies are taken as sent: a compressed upload is not what any route declares.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    // Brotli's default quality (11) is meant for static files; 5 is about gzip's speed and still smaller.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}
