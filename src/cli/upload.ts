import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiFailure, callJson, sendWithSession, type Target } from './api-request.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import type { Io } from './io.ts';
import { progressBar } from './progress.ts';

/** The media type a file's name suggests; the server checks it against the bytes. */
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.m4v': 'video/x-m4v',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/x-m4a',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.pdf': 'application/pdf',
};

const purposeOf = (type: string) =>
  type === 'application/pdf'
    ? 'pdf'
    : (['image', 'video', 'audio'].find((p) => type.startsWith(`${p}/`)) ?? 'download');

async function sha256Of(file: string) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Stream a file's bytes through a progress bar (re-readable: a retried request reads the file again). */
async function counted(io: Io, file: string, size: number) {
  const bar = await progressBar(io, 'Uploading', size, 'bytes');
  return {
    body: () => {
      let sent = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          sent += chunk.length;
          bar.update(sent);
          done(null, chunk);
        },
      });
      return Readable.toWeb(createReadStream(file).pipe(count)) as ReadableStream;
    },
    stop: () => bar.stop(),
  };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    throw new CliFailure(EXIT.usage, `Cannot read ${file}.`);
  }
}

/** Sends a file's bytes to an upload URL of the API with a progress bar (PUT unless told); returns the API's answer. */
export async function putFile(io: Io, target: Target, url: string, file: string, method = 'PUT', size = sizeOf(file)) {
  const stream = await counted(io, file, size);
  let response: Response;
  try {
    response = await sendWithSession(
      target,
      url,
      () =>
        ({
          method,
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
          body: stream.body(),
          duplex: 'half',
        }) as RequestInit,
    );
  } finally {
    stream.stop();
  }
  if (!response.ok) throw await apiFailure(response, target);
  return (await response.json()) as Record<string, unknown>;
}

/** `lyceum storage upload <file>`: declares the asset (createAsset), then sends its bytes (uploadAssetContent). */
export async function uploadFile(
  io: Io,
  target: Target,
  file: string,
  options: { purpose?: string; contentType?: string },
) {
  const size = sizeOf(file);
  const contentType = options.contentType ?? TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const asset = await callJson(target, '/api/v1/storage/assets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      purpose: options.purpose ?? purposeOf(contentType),
      filename: basename(file),
      content_type: contentType,
      byte_size: size,
      sha256: await sha256Of(file),
    }),
  });
  return putFile(io, target, String(asset.upload_url), file, 'PUT', size);
}
