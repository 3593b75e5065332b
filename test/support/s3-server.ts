import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-protocol server (s3rver: the S3 REST API over files in a temporary folder) on a free port, with one
 * bucket; `env` points a test server at it.
 */
export async function startS3Server(bucket = 'lyceum-test') {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 'lyceum-s3-')),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_REGION: 'us-east-1',
      // s3rver's fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => server.close(),
  };
}
