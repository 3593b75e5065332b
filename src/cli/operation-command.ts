import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CallInput } from './call.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import type { Io } from './io.ts';
import { kebab, type Operation, type OperationArg } from './operations.ts';

/** Flags the CLI itself uses on operation commands; an API field of the same name gets `--field-<name>`. */
const RESERVED = new Set(['data', 'json', 'all', 'file', 'output', 'wait', 'profile', 'help', 'version']);

export const flagOf = (arg: Pick<OperationArg, 'name'>) => {
  const name = kebab(arg.name);
  return RESERVED.has(name) ? `field-${name}` : name;
};

/** What a parser returns for `null`: commander turns a parser's own null into "" (an option given without value). */
const NULL = Symbol('null');

/** `@path` reads a file, `@-` standard input; anything else is the text itself. */
function textOrFile(io: Io, value: string): string {
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path === '-' ? (io.stdin as unknown as { fd: number }).fd : path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidArgumentError('not valid JSON');
  }
}

/**
 * A flag's text as the value the API takes: numbers and booleans checked, `null` for a nullable field, JSON (or
 * @file.json) for objects and arrays of objects.
 */
function parserOf(io: Io, arg: OperationArg) {
  const scalar = (kind: string, text: string): unknown => {
    if (arg.nullable && text === 'null') return NULL;
    if (kind === 'integer' || kind === 'number') {
      const value = Number(text);
      if (text.trim() === '' || Number.isNaN(value) || (kind === 'integer' && !Number.isInteger(value)))
        throw new InvalidArgumentError(`not ${kind === 'integer' ? 'an integer' : 'a number'}`);
      return value;
    }
    if (kind === 'boolean') {
      if (text !== 'true' && text !== 'false') throw new InvalidArgumentError('true or false');
      return text === 'true';
    }
    return text;
  };
  if (arg.kind === 'json')
    return (text: string) => (arg.nullable && text === 'null' ? NULL : parseJson(textOrFile(io, text)));
  if (arg.kind === 'list')
    return (text: string, previous: unknown) => [
      ...((previous as unknown[]) ?? []),
      scalar(arg.itemKind ?? 'string', text),
    ];
  return (text: string) => scalar(arg.kind, text);
}

/** A word as the shell takes it: bare when plain, else in single quotes. */
export const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** A flag's sample value as typed on a command line (JSON for objects and lists of them). */
const sampleText = (arg: OperationArg) =>
  shellWord(arg.kind === 'json' ? JSON.stringify(arg.example ?? {}) : String(arg.example ?? arg.name));

const hintOf = (arg: OperationArg) => {
  const kind =
    arg.kind === 'list' ? `${arg.itemKind}, repeat for more` : arg.kind === 'json' ? 'JSON or @file.json' : arg.kind;
  const extras = [kind, arg.nullable ? 'or null' : '', arg.required && arg.in !== 'path' ? 'required' : ''].filter(
    Boolean,
  );
  // A JSON flag shows its shape: a sample to copy, and every field it takes (`?`: optional).
  const shape =
    arg.kind === 'json'
      ? ` e.g. --${flagOf(arg)} ${sampleText(arg)}${arg.fields?.length ? `; fields: ${arg.fields.join(', ')}` : ''}`
      : '';
  return `${arg.description ? `${arg.description} ` : ''}(${extras.join(', ')})${shape}`;
};

/**
 * The EXAMPLES block of a command's help, made from the operation: its path arguments and required flags with sample
 * values, then what its kind of answer allows (every page, a file to write, a job not waited for).
 */
export function examplesOf(operation: Operation, name: string): string[] {
  const words = [
    ...operation.args.filter((a) => a.in === 'path').map((a) => shellWord(String(a.example ?? `<${a.name}>`))),
    ...operation.args.filter((a) => a.in !== 'path' && a.required).map((a) => `--${flagOf(a)} ${sampleText(a)}`),
  ];
  // Nothing required (an update): the first field shows how one is changed.
  const first = operation.args.find((a) => a.in === 'body');
  if (first && !operation.args.some((a) => a.in !== 'path' && a.required))
    words.push(first.kind === 'boolean' ? `--${flagOf(first)}` : `--${flagOf(first)} ${sampleText(first)}`);
  if (operation.rawBody) words.push('--file ./file.bin');
  const line = [name, ...words].join(' ');
  const examples = [`$ ${line}`];
  if (operation.list) examples.push(`$ ${line} --all > ${operation.group}.jsonl`);
  else if (operation.download)
    examples.push(`$ ${line} --output ${operation.group}.${operation.download.type.split(/[/+;]/)[1] ?? 'out'}`);
  else if (operation.job) examples.push(`$ ${line} --no-wait --json`);
  else examples.push(`$ ${line} --json`);
  return examples;
}

/**
 * One operation as a command: path parameters are its arguments, query and body fields its flags (with their types,
 * choices and descriptions), `--data` a JSON body the flags add to; `--all` on lists, `--file` for raw uploads,
 * `--no-wait` for jobs.
 */
export function operationCommand(
  io: Io,
  operation: Operation,
  name: string,
  run: (operation: Operation, input: CallInput, options: { all: boolean; wait: boolean }) => Promise<void>,
): Command {
  const command = new Command(name)
    .summary(operation.summary)
    .description(
      `${operation.summary}.\n\nOperation ${operation.operationId} (${operation.method} ${operation.path}); scope ${operation.scope}${operation.anonymous ? ', or none for the public view' : ''}.`,
    );
  command.addHelpText(
    'after',
    `\nExamples:\n${examplesOf(operation, `lyceum ${operation.group} ${operation.verb}`)
      .map((line) => `  ${line}`)
      .join('\n')}\n`,
  );
  const pathArgs = operation.args.filter((a) => a.in === 'path');
  for (const arg of pathArgs) command.argument(`<${arg.name}>`, arg.description);
  const flags = operation.args.filter((a) => a.in !== 'path');
  for (const arg of flags) {
    const flag = flagOf(arg);
    if (arg.kind === 'boolean') {
      command.addOption(new Option(`--${flag}`, hintOf(arg)));
      command.addOption(new Option(`--no-${flag}`, `Set ${arg.name} to false`).hideHelp());
      continue;
    }
    const option = new Option(`--${flag} <${arg.kind === 'list' ? 'value' : arg.kind}>`, hintOf(arg)).argParser(
      parserOf(io, arg),
    );
    if (arg.choices && arg.kind !== 'list') option.choices(arg.choices);
    command.addOption(option);
  }
  const hasBody = flags.some((a) => a.in === 'body');
  if (hasBody)
    command.option(
      '--data <json>',
      'The request body as JSON, or @file.json, or @- for standard input; flags add to it',
    );
  if (operation.list) command.option('--all', 'Every page, following the cursor, as JSON lines');
  if (operation.rawBody) command.requiredOption('--file <path>', 'The file whose bytes are sent');
  if (operation.download)
    command.option(
      '--output <file>',
      `Write the ${operation.download.type} answer to this file (default: standard output)`,
    );
  if (operation.job) command.option('--no-wait', 'Print the accepted job at once instead of following it to its end');

  command.action(async (...received: unknown[]) => {
    const options = (received.at(-2) ?? {}) as Record<string, unknown>;
    const input: CallInput = {
      path: {},
      query: {},
      body: undefined,
      file: options.file as string | undefined,
      output: options.output as string | undefined,
    };
    pathArgs.forEach((arg, i) => {
      input.path[arg.name] = String(received[i]);
    });
    let body: Record<string, unknown> | undefined;
    if (options.data !== undefined) {
      const data = parseJson(textOrFile(io, String(options.data)));
      if (typeof data !== 'object' || data === null || Array.isArray(data))
        throw new CliFailure(EXIT.usage, '--data must be a JSON object.');
      body = data as Record<string, unknown>;
    }
    for (const arg of flags) {
      const given = options[new Option(`--${flagOf(arg)}`).attributeName()];
      if (given === undefined) continue;
      const value = given === NULL ? null : given;
      if (arg.in === 'query') input.query[arg.name] = value;
      else body = { ...body, [arg.name]: value };
    }
    const missing = flags.filter(
      (a) => a.required && (a.in === 'query' ? input.query : (body ?? {}))[a.name] === undefined,
    );
    if (missing.length)
      throw new CliFailure(
        EXIT.usage,
        `Missing: ${missing.map((a) => `--${flagOf(a)}`).join(', ')} (or give them in --data).`,
      );
    if (hasBody && body === undefined) body = {};
    input.body = body;
    await run(operation, input, { all: options.all === true, wait: options.wait !== false });
  });
  return command;
}
