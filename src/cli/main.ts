import { CommanderError } from 'commander';
import { browserOpener } from './browser.ts';
import { CliFailure, EXIT, type ExitCode } from './exit-codes.ts';
import { type Io, say } from './io.ts';
import { commandCache } from './openapi-cache.ts';
import type { Operation } from './operations.ts';
import { keepConfigDirPrivate, profileStore } from './profiles.ts';
import { BUILT_IN, buildProgram, type Context } from './program.ts';

/** --profile's value, read before the command tree is built (which school's commands to build it from). */
function profileFlag(argv: string[]): string | undefined {
  for (const [i, word] of argv.entries()) {
    if (word === '--') return undefined;
    if (word === '--profile') return argv[i + 1];
    if (word.startsWith('--profile=')) return word.slice('--profile='.length);
  }
  return undefined;
}

/** The first word that is not an option (nor --profile's value): the command or group asked for. */
function firstWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--profile') i++;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/** Commander's own exits: help and version are fine, the rest are usage errors. */
const commanderExit = (error: CommanderError): ExitCode =>
  error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0
    ? EXIT.ok
    : EXIT.usage;

const STALE_TREE = new Set(['commander.unknownCommand', 'commander.unknownOption', 'commander.excessArguments']);

/**
 * Runs the CLI once and returns its exit code. The school's commands come from the cached tree at once while the
 * cache is revalidated (If-None-Match) alongside the command; a command or flag the cached tree does not know waits
 * for that answer and is tried again on the new tree.
 */
export async function run(argv: string[], io: Io): Promise<ExitCode> {
  const errors: string[] = [];
  let pending: Promise<Operation[] | undefined> | undefined;
  try {
    keepConfigDirPrivate(io.env, (line) => say(io.stderr, line));
    const resolved = profileStore(io.env).resolve(profileFlag(argv));
    const ctx: Context = { io, profileName: resolved?.name, profile: resolved?.profile };
    const first = firstWord(argv);
    let operations: Operation[] | undefined;
    if (ctx.profile) {
      const cache = commandCache(io.env, ctx.profile.base_url, (line) => say(io.stderr, line));
      const cached = cache.read();
      operations = cached?.operations;
      if (!cached) operations = (await cache.revalidate(undefined)) ?? operations;
      else if (!BUILT_IN.includes(first ?? '')) pending = cache.revalidate(cached).catch(() => undefined);
    }
    const attempt = async (ops: Operation[] | undefined) => {
      const output = {
        writeOut: (text: string) => io.stdout.write(text),
        writeErr: (text: string) => errors.push(text),
        outputError: (text: string) => errors.push(text),
      };
      const program = buildProgram(ctx, ops, output, first);
      await program.parseAsync(argv, { from: 'user' });
    };
    try {
      await attempt(operations);
    } catch (error) {
      if (!(error instanceof CommanderError) || !STALE_TREE.has(error.code) || !pending) throw error;
      const fresh = await pending;
      pending = undefined;
      if (!fresh) throw error;
      errors.length = 0;
      await attempt(fresh);
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      for (const text of errors) io.stderr.write(text);
      return commanderExit(error);
    }
    if (error instanceof CliFailure) {
      say(io.stderr, `Error: ${error.message}`);
      if (error.hint) say(io.stderr, error.hint);
      return error.code;
    }
    say(io.stderr, `Error: ${(error as Error).message}`);
    return EXIT.apiError;
  } finally {
    // The revalidated tree is written for the next run even when this one did not need it.
    await pending;
  }
}

/** The process's own streams and clock. */
export function processIo(): Io {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    now: () => Date.now(),
    openBrowser: browserOpener(process.env),
  };
}

if (import.meta.main) process.exitCode = await run(process.argv.slice(2), processIo());
