/** The CLI's exit codes: stable, so scripts can branch on them (also listed in docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The API refused the request: 4xx other than 401/403 (not found, conflict, invalid input). */
  apiError: 1,
  /** The command line itself is wrong: unknown command or flag, a value of the wrong type. */
  usage: 2,
  /** Signing in is needed, was refused, has ended, or lacks a scope (401, 403). */
  auth: 3,
  /** The school could not be reached, or failed (5xx). */
  unavailable: 4,
  /** A bulk job finished, but some of its rows failed (they are printed). */
  partial: 5,
} as const;

/** What each exit code means: `lyceum help exit-codes` prints it, and docs/cli.md has the same table. */
export const EXIT_MEANINGS: [code: ExitCode, meaning: string][] = [
  [EXIT.ok, 'done'],
  [EXIT.apiError, 'the API refused the request (4xx other than 401/403: not found, conflict, invalid input)'],
  [EXIT.usage, 'the command line is wrong (unknown command or flag, a value of the wrong type, a missing flag)'],
  [
    EXIT.auth,
    'not signed in, signing in was refused or has ended, or a scope is missing (401, 403) — also a scope your role can never hold',
  ],
  [EXIT.unavailable, 'the school could not be reached, or failed (5xx, 429)'],
  [EXIT.partial, 'a bulk job finished, but some of its rows failed (printed on standard error)'],
];

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports in one message (and maybe the command to run next) and ends with its exit code. */
export class CliFailure extends Error {
  readonly code: ExitCode;
  readonly hint: string | undefined;
  constructor(code: ExitCode, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}
