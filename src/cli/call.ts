import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiFailure, readBody, sendWithSession, type Target } from './api-request.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import { type Io, say, widthOf } from './io.ts';
import type { Operation } from './operations.ts';
import { listTable, objectTable } from './output.ts';
import { progressBar } from './progress.ts';
import { loginCommand } from './session.ts';
import { putFile } from './upload.ts';

export type CallInput = {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
  /** For an operation that takes raw bytes: the file to send. */
  file?: string;
  /** For an operation that answers a file: where to write it (default: standard output). */
  output?: string;
};

export type CallOptions = { json: boolean; all: boolean; wait: boolean };

function urlOf(target: Target, operation: Operation, input: CallInput): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.path[name] ?? ''));
  const url = new URL(`${target.baseUrl}${path}`);
  for (const [name, value] of Object.entries(input.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.toString();
}

/** Follows a job the API accepted (202 with a Location) until it has finished, its progress shown as a bar. */
async function follow(io: Io, target: Target, location: string, first: Record<string, unknown>) {
  const progress = (job: Record<string, unknown>) => job.progress as { done: number; total: number } | undefined;
  const bar = await progressBar(io, 'Working', progress(first)?.total, 'items');
  let job = first;
  try {
    while (job.status === 'queued' || job.status === 'running') {
      bar.update(progress(job)?.done ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const response = await sendWithSession(target, new URL(location, target.baseUrl).toString(), () => ({}));
      if (!response.ok) throw await apiFailure(response, target);
      job = (await readBody(response)) as Record<string, unknown>;
    }
    bar.update(progress(job)?.done ?? 0);
  } finally {
    bar.stop();
  }
  return job;
}

/** The rows of a bulk answer that failed: those with an error, or a status saying so. */
function failedRows(body: unknown): Record<string, unknown>[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.filter(
    (row): row is Record<string, unknown> =>
      typeof row === 'object' &&
      row !== null &&
      (Boolean((row as { error?: unknown }).error) ||
        ['invalid', 'failed', 'error'].includes(String((row as { status?: unknown }).status))),
  );
}

/** A finished job that failed, or whose rows partly failed, ends the command with a failure (its rows on stderr). */
function jobOutcome(io: Io, job: Record<string, unknown>) {
  const failed = failedRows(job);
  const total = Array.isArray(job.results) ? job.results.length : failed.length;
  if (failed.length) {
    const columns = [...new Set(failed.flatMap((row) => Object.keys(row)))];
    say(io.stderr, listTable(failed, columns, io.stderr.columns || widthOf(io)));
    throw new CliFailure(
      EXIT.partial,
      `${failed.length} of ${total} row${total === 1 ? '' : 's'} failed (listed above)${failed.length < total ? '; the others were done' : ''}.`,
    );
  }
  if (job.status === 'failed') throw new CliFailure(EXIT.apiError, `The job ${String(job.id ?? '')} failed.`);
}

/** Streams a file the API answers with to `output`, or to standard output. */
async function download(io: Io, target: Target, operation: Operation, input: CallInput) {
  const response = await sendWithSession(target, urlOf(target, operation, input), () => ({
    method: operation.method,
    headers: { accept: `${operation.download?.type ?? '*/*'}, application/json;q=0.5` },
  }));
  if (!response.ok) throw await apiFailure(response, target);
  if (!response.body) return;
  const bytes = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  // Standard output stays open after the file (it is the process's, not this command's).
  if (input.output) await pipeline(bytes, createWriteStream(input.output));
  else await pipeline(bytes, io.stdout, { end: false });
  if (input.output) say(io.stderr, `Wrote ${input.output}.`);
}

function print(io: Io, target: Target, operation: Operation, body: unknown, options: CallOptions) {
  if (body === undefined) {
    if (!options.json) say(io.stdout, 'Done.');
    return;
  }
  if (options.json || typeof body !== 'object' || body === null) return say(io.stdout, JSON.stringify(body, null, 2));
  const page = body as { data?: Record<string, unknown>[]; has_more?: boolean; next_cursor?: string | null };
  if (operation.list && Array.isArray(page.data)) {
    if (!page.data.length) {
      // An empty public view is no answer to a person whose login has ended: they wanted their own list.
      if (!target.session)
        throw new CliFailure(
          EXIT.auth,
          `Not signed in to ${target.baseUrl}: nothing in the public view.`,
          `Run: ${loginCommand(target.baseUrl, target.profileName)}`,
        );
      return say(io.stdout, 'Nothing found.');
    }
    say(io.stdout, listTable(page.data, operation.list.columns, widthOf(io)));
    if (page.has_more) say(io.stdout, `More: --starting-after ${page.next_cursor} (or --all for every page)`);
    return;
  }
  say(io.stdout, objectTable(body as Record<string, unknown>, widthOf(io)));
}

/** Runs one API operation and prints its answer: a table for people, JSON for scripts, JSON lines with --all. */
export async function callOperation(
  io: Io,
  target: Target,
  operation: Operation,
  input: CallInput,
  options: CallOptions,
) {
  if (!target.session && !operation.anonymous)
    throw new CliFailure(
      EXIT.auth,
      `Not signed in to ${target.baseUrl}.`,
      `Run: ${loginCommand(target.baseUrl, target.profileName)}`,
    );
  if (options.all) {
    if (!operation.list)
      throw new CliFailure(EXIT.usage, `--all is for list commands; ${operation.operationId} is not one.`);
    const query = { ...input.query };
    for (;;) {
      const response = await sendWithSession(target, urlOf(target, operation, { ...input, query }), () => ({}));
      if (!response.ok) throw await apiFailure(response, target);
      const page = (await readBody(response)) as { data: unknown[]; has_more: boolean; next_cursor: string | null };
      for (const item of page.data) say(io.stdout, JSON.stringify(item));
      if (!page.has_more || !page.next_cursor) return;
      query.starting_after = page.next_cursor;
    }
  }
  if (operation.rawBody) {
    if (!input.file)
      throw new CliFailure(EXIT.usage, `${operation.operationId} sends a file: give it with --file <path>.`);
    const answer = await putFile(io, target, urlOf(target, operation, input), input.file, operation.method);
    return print(io, target, operation, answer, options);
  }
  if (operation.download) return download(io, target, operation, input);
  const response = await sendWithSession(target, urlOf(target, operation, input), () =>
    input.body === undefined
      ? { method: operation.method }
      : { method: operation.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(input.body) },
  );
  if (!response.ok) throw await apiFailure(response, target);
  let body = await readBody(response);
  const location = response.headers.get('location');
  const finished = response.status === 202 && operation.job && location && options.wait;
  if (finished) body = await follow(io, target, location, body as Record<string, unknown>);
  print(io, target, operation, body, options);
  if (finished || response.status !== 202) jobOutcome(io, (body ?? {}) as Record<string, unknown>);
}
