import type { BrowserOpener } from './browser.ts';
import type { Env } from './paths.ts';

/** What a CLI run reads and writes: the process's own in bin/lyceum.js, others in tests. */
export type Io = {
  env: Env;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream;
  now: () => number;
  openBrowser: BrowserOpener;
};

export const say = (stream: NodeJS.WritableStream, line = ''): void => {
  stream.write(`${line}\n`);
};

/** The width tables fit in: the terminal's, else COLUMNS, else 120. */
export const widthOf = (io: Io) => io.stdout.columns || Number(io.env.COLUMNS) || 120;
