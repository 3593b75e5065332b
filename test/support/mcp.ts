import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const headersFor = (token: string | undefined) => (token ? { authorization: `Bearer ${token}` } : undefined);

/** An unmodified 1.x SDK client (protocol 2025-11-25, the `initialize` handshake), with or without a token. */
export async function legacyClient(base: string, token?: string) {
  const client = new LegacyClient({ name: 'lyceum-test-v1', version: '1.0.0' });
  await client.connect(new LegacyTransport(new URL(`${base}/mcp`), { requestInit: { headers: headersFor(token) } }));
  return client;
}

/** An unmodified 2.x SDK client that negotiates protocol 2026-07-28 (server/discover). */
export async function modernClient(base: string, token?: string) {
  const client = new ModernClient(
    { name: 'lyceum-test-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(new URL(`${base}/mcp`), { requestInit: { headers: headersFor(token) } }));
  return client;
}

/** One raw JSON-RPC POST to /mcp (2025-11-25 framing), for what the SDK clients would not send. */
export async function mcpPost(
  base: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => Record<string, unknown> }> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const json = () => {
    const data = text.startsWith('event:')
      ? text
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6)
      : text;
    return JSON.parse(data ?? 'null') as Record<string, unknown>;
  };
  return { status: response.status, headers: response.headers, text, json };
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The structured JSON a tool result carries (or the error object of an isError result). */
export function resultJson(result: Record<string, unknown>) {
  if (result.structuredContent) return result.structuredContent as Record<string, unknown>;
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return JSON.parse(first?.text ?? 'null') as Record<string, unknown>;
}
