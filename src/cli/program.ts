import { readFileSync } from 'node:fs';
import { Command, Option, type OutputConfiguration } from 'commander';
import type { Target } from './api-request.ts';
import { callOperation } from './call.ts';
import { SHELLS, type Shell } from './completion.ts';
import { CliFailure, EXIT, EXIT_MEANINGS } from './exit-codes.ts';
import { type Io, say, widthOf } from './io.ts';
import { userinfo } from './oauth-client.ts';
import { operationCommand } from './operation-command.ts';
import type { Operation } from './operations.ts';
import { listTable, objectTable } from './output.ts';
import { type Profile, profileStore } from './profiles.ts';
import { loginCommand, openSession } from './session.ts';

/** The CLI's version: the package's (the CLI runs from its source, so package.json is beside it). */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Topics `lyceum help <topic>` explains besides the commands. */
const HELP_TOPICS: Record<string, () => string> = {
  'exit-codes': () =>
    [
      'Exit codes of lyceum (stable: scripts may branch on them):',
      '',
      ...EXIT_MEANINGS.map(([code, meaning]) => `  ${code}  ${meaning}`),
      '',
    ].join('\n'),
};

/** The built-in commands; everything else comes from the school. */
export const BUILT_IN = ['login', 'logout', 'whoami', 'profiles', 'completion', 'help'];

export type Context = {
  io: Io;
  /** The profile the command runs with (from --profile, LYCEUM_PROFILE or the last login). */
  profileName: string | undefined;
  profile: Profile | undefined;
};

async function targetOf(ctx: Context): Promise<Target> {
  const { profile, profileName } = ctx;
  if (!profile || !profileName)
    throw new CliFailure(
      EXIT.auth,
      profileName ? `No profile named ${profileName}.` : 'Not signed in to any school.',
      'Run: lyceum login <base_url>',
    );
  const session = await openSession(ctx.io.env, profileName, profile, ctx.io.now);
  return {
    baseUrl: profile.base_url,
    profileName,
    session: session.tokens ? session : undefined,
    roleScopes: profile.role_scopes?.split(' ').filter(Boolean),
    roleRefused: profile.role_refused?.split(' ').filter(Boolean),
  };
}

function requireSignedIn(target: Target) {
  if (!target.session)
    throw new CliFailure(
      EXIT.auth,
      `Not signed in to ${target.baseUrl}.`,
      `Run: ${loginCommand(target.baseUrl, target.profileName)}`,
    );
  return target.session;
}

function builtIns(program: Command, ctx: Context) {
  const { io } = ctx;
  program
    .command('login')
    .description('Sign in to a school in the browser and keep the tokens (profile: the host, or --profile)')
    .argument('<base_url>', 'The school, for example https://school.example')
    .option(
      '--scope <scopes...>',
      'Ask only for these scopes (space or comma separated), with those granted before; default: every scope your role may grant',
      [],
    )
    .option('--no-browser', 'Print the address to open instead of opening the browser')
    .action(async (baseUrl: string, options: { scope: string[]; browser: boolean }, command: Command) => {
      const { login } = await import('./login.ts');
      const profile = command.optsWithGlobals().profile;
      await login(io, { baseUrl, profile, scopes: options.scope, browser: options.browser });
    });

  program
    .command('logout')
    .description('Revoke this profile’s tokens at the school and forget them')
    .action(async () => {
      const { profileName } = await targetOf(ctx);
      const { logout } = await import('./login.ts');
      await logout(io, profileName, ctx.profile as Profile);
    });

  program
    .command('whoami')
    .description('Who is signed in, to which school, with which scopes')
    .action(async (_options: unknown, command: Command) => {
      const target = await targetOf(ctx);
      const session = requireSignedIn(target);
      const profile = ctx.profile as Profile;
      const token = (await session.accessToken()) ?? '';
      const user = profile.endpoints.userinfo ? await userinfo(profile.endpoints.userinfo, token) : profile.user;
      const shown = {
        profile: ctx.profileName,
        school: profile.base_url,
        name: user.name ?? null,
        email: user.email ?? null,
        subject: user.sub,
        scopes: session.tokens?.scope ?? '',
        tokens_kept_in: profile.token_store === 'keyring' ? 'the system keyring' : 'credentials file (0600)',
      };
      if (command.optsWithGlobals().json) say(io.stdout, JSON.stringify(shown, null, 2));
      else say(io.stdout, objectTable(shown, widthOf(io)));
    });

  const profiles = program.command('profiles').description('The schools signed in to (profiles); * is the current one');
  profiles.action(async (_options: unknown, command: Command) => {
    const file = profileStore(io.env).read();
    const rows = Object.entries(file.profiles).map(([name, p]) => ({
      current: name === file.current ? '*' : '',
      name,
      school: p.base_url,
      user: p.user.email ?? p.user.name ?? p.user.sub,
    }));
    if (command.optsWithGlobals().json) return say(io.stdout, JSON.stringify(rows, null, 2));
    if (!rows.length) return say(io.stdout, 'No profiles yet. Run: lyceum login <base_url>');
    say(io.stdout, listTable(rows, ['current', 'name', 'school', 'user'], widthOf(io)));
  });
  profiles
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>')
    .action((name: string) => {
      profileStore(io.env).use(name);
      say(io.stdout, `Now using ${name}.`);
    });

  program
    .command('completion')
    .description('Print a completion script: bash, zsh or fish (it lists the current school’s commands)')
    .addArgument(new Command().createArgument('<shell>', SHELLS.join(', ')).choices(SHELLS))
    .action(async (shell: Shell) => {
      const { completionScript } = await import('./completion.ts');
      io.stdout.write(completionScript(shell, program));
    });
}

/**
 * The command tree: built-ins, then one group per API tag with a command per operation, and each operationId as a
 * hidden command of its own. Given the command line's first word, only the commands it can reach are built (every
 * group is still listed): a start-up builds one group's flags, not all 140 operations twice.
 */
export function buildProgram(
  ctx: Context,
  operations: Operation[] | undefined,
  output: OutputConfiguration = {},
  firstWord?: string,
): Command {
  const whole = firstWord === undefined || firstWord === 'help' || firstWord === 'completion';
  const { io } = ctx;
  const program = new Command('lyceum')
    .description('Run a Lyceum school from the terminal: every API operation, by group and verb or by operationId.')
    .addOption(
      new Option('--profile <name>', 'Which school (profile) to use; default: LYCEUM_PROFILE, else the last login'),
    )
    .option('--json', 'Print JSON instead of tables')
    .version(`lyceum ${VERSION}`, '-V, --version', 'Print the version of lyceum')
    .helpCommand(false)
    .showSuggestionAfterError()
    .configureHelp({ sortSubcommands: false })
    .exitOverride()
    .configureOutput(output);
  builtIns(program, ctx);
  program
    .command('help')
    .description(`Help for a command (lyceum help courses create), or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .argument('[words...]', 'A command (group and verb) or a topic')
    .action((words: string[]) => {
      const topic = HELP_TOPICS[words.join(' ')];
      if (topic) return void io.stdout.write(topic());
      let command = program;
      for (const word of words) {
        const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next)
          throw new CliFailure(EXIT.usage, `No command or help topic "${words.join(' ')}".`, 'Run: lyceum --help');
        command = next;
      }
      command.outputHelp();
    });

  const run = async (
    operation: Operation,
    input: Parameters<typeof callOperation>[3],
    options: { all: boolean; wait: boolean },
    json: boolean,
  ) => callOperation(io, await targetOf(ctx), operation, input, { ...options, json });

  const groups = new Map<string, Command>();
  for (const operation of operations ?? []) {
    let group = groups.get(operation.group);
    if (!group) {
      const verbs = (operations ?? []).filter((op) => op.group === operation.group).map((op) => op.verb);
      group = new Command(operation.group).description(verbs.join(', ')).copyInheritedSettings(program);
      groups.set(operation.group, group);
    }
    const add = (parent: Command, name: string, hidden: boolean) => {
      const command = operationCommand(io, operation, name, (op, input, options) =>
        run(op, input, options, command.optsWithGlobals().json === true),
      );
      parent.addCommand(command.copyInheritedSettings(program), { hidden });
    };
    if (whole || firstWord === operation.group) add(group, operation.verb, false);
    if (whole || firstWord === operation.operationId) add(program, operation.operationId, true);
  }
  const storage = groups.get('storage');
  storage
    ?.command('upload')
    .description('Upload a file as an asset (createAsset, then its bytes with a progress bar)')
    .argument('<file>')
    .option('--purpose <purpose>', 'image, video, audio, pdf or download (default: from the file type)')
    .option('--content-type <type>', 'The media type (default: from the file name)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ lyceum storage upload intro.mp4\n  $ lyceum storage upload notes.pdf --purpose download --json\n',
    )
    .action(async (file: string, options: { purpose?: string; contentType?: string }, command: Command) => {
      const { uploadFile } = await import('./upload.ts');
      const asset = await uploadFile(io, await targetOf(ctx), file, options);
      if (command.optsWithGlobals().json) say(io.stdout, JSON.stringify(asset, null, 2));
      else say(io.stdout, objectTable(asset, widthOf(io)));
    });
  for (const group of groups.values()) program.addCommand(group.helpGroup('School commands (from its /openapi.json):'));
  if (!operations) program.addHelpText('after', '\nSign in (lyceum login <base_url>) to see the school’s commands.');
  return program;
}
