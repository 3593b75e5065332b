import { apiFailure, readBody, sendWithSession, type Target } from './api-request.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import { type Io, say, widthOf } from './io.ts';
import type { Operation } from './operations.ts';
import { listTable, objectTable } from './output.ts';
import { progressBar } from './progress.ts';
import { putFile } from './upload.ts';

export type CallInput = {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
  /** For an operation that takes raw bytes: the file to send. */
  file?: string;
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

function print(io: Io, operation: Operation, body: unknown, options: CallOptions) {
  if (body === undefined) {
    if (!options.json) say(io.stdout, 'Done.');
    return;
  }
  if (options.json || typeof body !== 'object' || body === null) return say(io.stdout, JSON.stringify(body, null, 2));
  const page = body as { data?: Record<string, unknown>[]; has_more?: boolean; next_cursor?: string | null };
  if (operation.list && Array.isArray(page.data)) {
    if (!page.data.length) return say(io.stdout, 'Nothing found.');
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
    return print(io, operation, await putFile(io, target, urlOf(target, operation, input), input.file), options);
  }
  const response = await sendWithSession(target, urlOf(target, operation, input), () =>
    input.body === undefined
      ? { method: operation.method }
      : { method: operation.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(input.body) },
  );
  if (!response.ok) throw await apiFailure(response, target);
  let body = await readBody(response);
  const location = response.headers.get('location');
  if (response.status === 202 && operation.job && location && options.wait)
    body = await follow(io, target, location, body as Record<string, unknown>);
  print(io, operation, body, options);
}
