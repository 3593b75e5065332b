import { createServer } from 'node:http';
import { CliFailure, EXIT } from './exit-codes.ts';

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3rem"><h1>${title}</h1><p>${text}</p>`;

/**
 * Waits for the browser to come back to http://127.0.0.1:<ephemeral port>/callback (RFC 8252 §7.3) and answers it
 * with a page saying to return to the terminal. Other paths get 404, so a stray request does not end the login. It is
 * one-shot: once the first answer is sent the listener closes, and a request already on an open connection gets 400.
 */
export async function loopbackRedirect(): Promise<{ redirectUri: string; received: Promise<URL>; close(): void }> {
  let deliver: (url: URL) => void = () => undefined;
  const received = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  let answered = false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return response.writeHead(404).end();
    if (answered)
      return response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
        .end(PAGE('Already answered', 'This sign-in has had its answer; the terminal says how it went.'));
    answered = true;
    const failed = url.searchParams.has('error');
    response.once('finish', () => {
      server.close();
      server.closeAllConnections();
    });
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' })
      .end(
        failed
          ? PAGE('Not signed in', 'The school did not sign you in. The terminal says why; you can close this window.')
          : PAGE('Signed in', 'You can close this window and return to the terminal.'),
      );
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CliFailure(EXIT.unavailable, `Cannot listen on 127.0.0.1: ${error.message}`)),
    );
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
