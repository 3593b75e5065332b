import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorizedError,
} from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationFull,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * The host's side of the MCP SDK's OAuth client machinery, kept in memory: a loopback redirect, the tokens, the PKCE
 * verifier, and `openBrowser` for the person's sign-in and consent. It counts the registrations the SDK makes and
 * keeps the last `state` it sent, for the tests to check.
 */
export class BrowserOAuthProvider implements OAuthClientProvider {
  information: OAuthClientInformationFull | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrls: URL[] = [];
  lastState = '';
  registrations = 0;
  readonly port: number;
  readonly clientName: string;
  readonly openBrowser: (url: URL) => Promise<void>;
  constructor(port: number, openBrowser: (url: URL) => Promise<void>, clientName = 'MCP SDK test agent') {
    this.port = port;
    this.openBrowser = openBrowser;
    this.clientName = clientName;
  }
  get redirectUrl() {
    return `http://127.0.0.1:${this.port}/callback`;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  state() {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationFull) {
    if (information.client_id !== this.information?.client_id) this.registrations++;
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    await this.openBrowser(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * Each SDK major version, unmodified (1.x speaks 2025-11-25, 2.x is pinned to 2026-07-28): how it connects with an
 * auth provider (and, optionally, the `fetch` its documented option lets a host wrap), how it finishes the
 * authorization from the loopback callback, and the error it throws for a 401.
 */
export const MCP_SDKS = {
  '1.x': {
    connect: async (url: URL, provider: OAuthClientProvider, fetch?: typeof globalThis.fetch) => {
      const client = new LegacyClient({ name: 'sdk-agent', version: '1.0.0' });
      const transport = new LegacyTransport(url, { authProvider: provider, ...(fetch ? { fetch } : {}) });
      await client.connect(transport);
      return { client, finishAuth: (callback: URL) => transport.finishAuth(String(callback.searchParams.get('code'))) };
    },
    Unauthorized: UnauthorizedError,
  },
  '2.x': {
    connect: async (url: URL, provider: OAuthClientProvider, fetch?: typeof globalThis.fetch) => {
      const client = new ModernClient(
        { name: 'sdk-agent', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const transport = new ModernTransport(url, { authProvider: provider as never, ...(fetch ? { fetch } : {}) });
      await client.connect(transport);
      return { client, finishAuth: (callback: URL) => transport.finishAuth(callback.searchParams) };
    },
    Unauthorized: ModernUnauthorizedError,
  },
} as const;
