import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/time/clock.ts';
import type { Engine } from './databases.ts';
import { startS3Server } from './s3-server.ts';
import { startTestServer, type TestServer } from './server.ts';

/** Where a test school keeps its files: a temporary folder, or a bucket of a real S3-protocol server. */
export const backends = ['local', 's3'] as const;
export type Backend = (typeof backends)[number];

export type Asset = {
  id: string;
  purpose: string;
  filename: string;
  content_type: string;
  byte_size: number;
  sha256: string | null;
  status: 'pending' | 'ready' | 'failed';
  failure_reason: string | null;
  url: string | null;
  upload_url: string | null;
};

/** A test server whose files go to `backend`; closing it also stops the S3-protocol server it started. */
export async function startStorageServer(
  engine: Engine,
  backend: Backend,
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<TestServer> {
  const s3 = backend === 's3' ? await startS3Server() : undefined;
  const files = s3?.env ?? { STORAGE_DIR: mkdtempSync(join(tmpdir(), 'lyceum-files-')) };
  try {
    const server = await startTestServer(engine, { ...files, ...env }, options);
    return {
      ...server,
      close: async () => {
        await server.close();
        await s3?.close();
      },
    };
  } catch (error) {
    await s3?.close();
    throw error;
  }
}

/** PUTs `bytes` to an asset's upload URL. */
export async function putBytes(asset: Asset, bytes: Buffer | ReadableStream<Uint8Array>, token: string) {
  const response = await fetch(asset.upload_url ?? '', {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: bytes,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as Asset & { error_description?: string } };
}

/** Creates an asset for `bytes` and uploads them; it must come out ready. */
export async function uploadAsset(
  server: Pick<TestServer, 'url'>,
  token: string,
  declared: { purpose: string; filename: string; content_type: string; sha256?: string },
  bytes: Buffer,
): Promise<Asset> {
  const created = await fetch(`${server.url}/api/v1/storage/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...declared, byte_size: bytes.length }),
  });
  const asset = (await created.json()) as Asset;
  assert.equal(created.status, 201, JSON.stringify(asset));
  const done = await putBytes(asset, bytes, token);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.status, 'ready');
  return done.body;
}
