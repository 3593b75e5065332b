import type { SchoolStore } from '../areas/school/store.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/tables.ts';
import { authMarkdown } from '../discovery/auth-md.ts';
import type { DiscoveryDocuments } from '../discovery/documents.ts';
import type { AgentDocument } from './catalog-tools.ts';

/** The machine-readable documents an agent reads, served over HTTP and as MCP resources from the same generators. */
export function agentDocuments(deps: {
  config: Config;
  db: Db;
  school: SchoolStore;
  documents: DiscoveryDocuments;
}): AgentDocument[] {
  const url = (path: string) => `${deps.config.BASE_URL}${path}`;
  return [
    {
      name: 'auth.md',
      url: url('/auth.md'),
      title: 'How to authenticate (OAuth 2.1, PKCE, scopes)',
      mimeType: 'text/markdown',
      load: async () => {
        const school = await deps.school.get(deps.db);
        return authMarkdown(deps.config, { name: school?.name });
      },
    },
    {
      name: 'llms.txt',
      url: url('/llms.txt'),
      title: 'Index of the school for agents',
      mimeType: 'text/plain',
      load: async () => (await deps.documents.llmsTxt()).body,
    },
    {
      name: 'pricing.md',
      url: url('/pricing.md'),
      title: 'What the school sells, with prices',
      mimeType: 'text/markdown',
      load: async () => (await deps.documents.pricingMd()).body,
    },
  ];
}
