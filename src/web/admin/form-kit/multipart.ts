import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The largest form with a file the admin takes without a script (a picture, a caption file): its bytes pass through
 * this process; the storage area's limits may be lower.
 */
const FORM_UPLOAD_BYTES = 20_000_000;

/**
 * Lets the routes of `scope` take multipart forms (a file with its fields), read into a web FormData: the body is the
 * form's entries by name, a file part as a File.
 */
export function acceptMultipartForms(scope: FastifyInstance) {
  scope.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: FORM_UPLOAD_BYTES },
    async (request: FastifyRequest, body: Buffer | string) => {
      const form = await new Response(body, {
        headers: { 'content-type': String(request.headers['content-type']) },
      }).formData();
      return Object.fromEntries(form.entries());
    },
  );
}
