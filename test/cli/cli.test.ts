import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commandCache } from '../../src/cli/openapi-cache.ts';
import { refreshLockPath } from '../../src/cli/session.ts';
import { apiClient, type Person, schoolWithPeople } from '../support/api.ts';
import { formPost } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { BIN, type CliResult, cliUser } from './run-cli.ts';

/**
 * `lyceum` as a person runs it: spawned as its own process against a started school, signing in through Chromium
 * (driven by Playwright as the configured browser opener), with its own home folder for config, tokens and cache.
 */
const ok = (result: CliResult) => {
  assert.equal(result.code, 0, `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return result;
};
const json = <T = Record<string, unknown>>(result: CliResult) => JSON.parse(ok(result).stdout) as T;
const config = (home: string) => JSON.parse(readFileSync(join(home, '.config/lyceum/config.json'), 'utf8'));
const credentialsPath = (home: string) => join(home, '.config/lyceum/credentials.json');
/** A reason to skip when a shell is not installed here (packages are not installed for tests). */
const missing = (shell: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return false;
  } catch {
    return `${shell} is not installed on this machine`;
  }
};
const credentials = (home: string) => JSON.parse(readFileSync(credentialsPath(home), 'utf8'));
/** Makes the stored access token of `profile` expired, so the next command refreshes first. */
const expireStoredToken = (home: string, profile: string) => {
  const stored = credentials(home);
  writeFileSync(
    credentialsPath(home),
    JSON.stringify({ ...stored, [profile]: { ...stored[profile], expires_at: 0 } }),
    {
      mode: 0o600,
    },
  );
};

describe('the lyceum CLI against a started school', () => {
  let server: TestServer;
  let people: { owner: Person; staff: Person; student: Person };
  let owner: ReturnType<typeof cliUser>;
  let profile: string;

  before(async () => {
    server = await startTestServer('sqlite');
    people = await schoolWithPeople(server);
    owner = cliUser(people.owner);
    profile = new URL(server.url).host;
  });
  after(() => server.close());

  test('without a login, --help lists the built-in commands and says how to get the school’s', async () => {
    const help = ok(await owner.run(['--help']));
    for (const command of ['login', 'logout', 'whoami', 'profiles', 'completion', 'help'])
      assert.match(help.stdout, new RegExp(`\\n  ${command}\\b`));
    assert.match(help.stdout, /Sign in \(lyceum login <base_url>\)/);
    const whoami = await owner.run(['whoami']);
    assert.equal(whoami.code, 3);
    assert.match(whoami.stderr, /Not signed in to any school\.\nRun: lyceum login <base_url>/);
  });

  test('login: the browser signs in, the grant is shown, tokens go to a 0600 file with a warning (no keyring here)', async () => {
    // --scope narrows the login: only these scopes (and a write's read) besides who you are.
    const login = ok(await owner.run(['login', server.url, '--scope', 'courses:read,school:read']));
    assert.match(
      login.stdout,
      new RegExp(`Signed in to ${server.url} as Ada Owner <owner@school\\.test> \\(profile ${profile}\\)`),
    );
    assert.match(login.stdout, /^Granted: openid profile email courses:read school:read$/m);
    assert.doesNotMatch(login.stdout, /courses:write|Not granted/, 'only what --scope asked for');
    assert.match(login.stderr, /Waiting for the browser/);
    assert.match(login.stderr, /Warning: the system keyring is not available/);
    assert.match(login.stderr, /Tokens are stored in .*credentials\.json, readable only by you/);
    // The configured opener (Chromium) was given the authorization URL and reached the school's sign-in step.
    assert.match(
      readFileSync(join(owner.home, 'opener.log'), 'utf8'),
      new RegExp(`^at ${server.url}/oauth/interaction/`),
    );

    assert.equal(statSync(credentialsPath(owner.home)).mode & 0o777, 0o600);
    assert.equal(statSync(join(owner.home, '.config/lyceum')).mode & 0o777, 0o700);
    const stored = credentials(owner.home)[profile];
    assert.match(stored.access_token, /.{20,}/);
    assert.ok(stored.refresh_token);
    const settings = config(owner.home);
    assert.equal(settings.current, profile);
    assert.equal(settings.profiles[profile].token_store, 'file');
    assert.doesNotMatch(JSON.stringify(settings), new RegExp(stored.access_token), 'no token in config.json');

    // The token is bound to the REST API (RFC 8707) and was issued to the CLI's own registration.
    const introspected = await formPost(server.url, '/api/oauth/introspect', {
      token: stored.access_token,
      client_id: settings.profiles[profile].client_id,
    });
    assert.equal(introspected.body.active, true);
    assert.equal(introspected.body.aud, server.config.BASE_URL);

    const whoami = json(await owner.run(['whoami', '--json']));
    assert.equal(whoami.email, 'owner@school.test');
    assert.equal(whoami.school, server.url);
    assert.match(String(whoami.scopes), /courses:read/);
  });

  test('--help lists the command groups from /openapi.json; a group lists its verbs, a verb its typed flags', async () => {
    const help = ok(await owner.run(['--help']));
    assert.match(help.stdout, /School commands \(from its \/openapi\.json\):/);
    for (const group of ['courses', 'students', 'membership-plans', 'digital-products', 'storage'])
      assert.match(help.stdout, new RegExp(`\\n  ${group}\\b`));
    const courses = ok(await owner.run(['courses', '--help']));
    for (const verb of ['list', 'create', 'get', 'update', 'delete', 'publish'])
      assert.match(courses.stdout, new RegExp(`\\n  ${verb}\\b`));
    const create = ok(await owner.run(['courses', 'create', '--help']));
    assert.match(create.stdout, /--title <string>/);
    assert.match(create.stdout, /--visibility <string>[\s\S]*\(choices: "public", "unlisted", "private"\)/);
    assert.match(create.stdout, /--enrollment-open/);
    assert.match(create.stdout, /--lecturer-ids <value>/);
    assert.match(create.stdout, /--data <json>/);
    assert.match(create.stdout, /Operation createCourse \(POST \/api\/v1\/courses\); scope courses:write/);
  });

  test('--version, help exit-codes, and each command’s help with EXAMPLES and the shape of its JSON flags', async () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    assert.equal(ok(await owner.run(['--version'])).stdout, `lyceum ${version}\n`);
    const codes = ok(await owner.run(['help', 'exit-codes'])).stdout;
    for (const [code, words] of [
      [0, 'done'],
      [1, 'the API refused'],
      [2, 'the command line is wrong'],
      [3, 'not signed in'],
      [4, 'the school could not be reached'],
      [5, 'a bulk job finished, but some of its rows failed'],
    ] as const)
      assert.match(codes, new RegExp(`^  ${code}  ${words}`, 'm'));
    assert.match(ok(await owner.run(['help', 'courses', 'create'])).stdout, /Usage: lyceum courses create/);
    assert.equal((await owner.run(['help', 'no-such-topic'])).code, 2);

    const create = ok(await owner.run(['courses', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    assert.match(
      create,
      /--price <json> .*e\.g\. --price '\{"amount":4900,"currency":"EUR"\}'; fields: amount, currency/,
    );
    assert.match(
      create,
      /Examples: \$ lyceum courses create --title 'Watercolour basics' \$ lyceum courses create --title 'Watercolour basics' --json/,
    );
    const bulk = ok(await owner.run(['students', 'bulk-enroll', '--help'])).stdout.replace(/\s+/g, ' ');
    assert.match(bulk, /fields: email, name\?, course_id, expires_at\?/);
    assert.match(
      bulk,
      /\$ lyceum students bulk-enroll --rows '\[\{"email":"ada@example\.com","course_id":"crs_\w{26}"\}\]'/,
    );
    const get = ok(await owner.run(['courses', 'get', '--help'])).stdout;
    assert.match(get, /\$ lyceum courses get crs_\w{26}\n/);
    const exported = ok(await owner.run(['forms', 'export-submissions', '--help'])).stdout;
    assert.match(exported, /--output <file>/);
    assert.doesNotMatch(exported, /--file|--data/, 'a GET sends no body');
    assert.match(exported, /\$ lyceum forms export-submissions frm_\w{26} --output forms\.csv/);
    // Every command's EXAMPLES are checked in operations.test.ts; the composed one has them too.
    assert.match(
      ok(await owner.run(['storage', 'upload', '--help'])).stdout,
      /Examples:\n {2}\$ lyceum storage upload /,
    );
  });

  test('a command refused for a missing scope prints the exact step-up command, which then works', async () => {
    const refused = await owner.run(['courses', 'create', '--title', 'Needs write']);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /^Error: This operation needs the courses:write scope\. \(insufficient_scope\)$/m);
    const hint = /^Run: (lyceum login .*)$/m.exec(refused.stderr)?.[1];
    assert.equal(hint, `lyceum login ${server.url} --scope courses:write`);

    const stepUp = ok(await owner.run(hint.split(' ').slice(1)));
    assert.match(stepUp.stdout, /Granted: .*courses:read.* school:read courses:write/, 'the earlier scopes are kept');
    const created = json(await owner.run(['courses', 'create', '--title', 'Stepped up', '--json']));
    assert.equal(created.title, 'Stepped up');
  });

  test('list, create, update and delete through the CLI; the raw operationId is the same command', async () => {
    ok(await owner.run(['login', server.url, '--scope', 'all']));
    const dataFile = join(owner.home, 'course.json');
    writeFileSync(
      dataFile,
      JSON.stringify({ title: 'From a file', subtitle: 'ignored', price: { amount: 1500, currency: 'EUR' } }),
    );
    const created = json(
      await owner.run(['courses', 'create', '--data', `@${dataFile}`, '--subtitle', 'The flag wins', '--json']),
    );
    assert.equal(created.title, 'From a file');
    assert.equal(created.subtitle, 'The flag wins');
    assert.deepEqual(created.price, { amount: 1500, currency: 'EUR' });

    const updated = json(
      await owner.run([
        'courses',
        'update',
        String(created.id),
        '--title',
        'Renamed',
        '--no-enrollment-open',
        '--price',
        'null',
        '--json',
      ]),
    );
    assert.equal(updated.title, 'Renamed');
    assert.equal(updated.enrollment_open, false);
    assert.equal(updated.price, null);

    const table = ok(await owner.run(['courses', 'list', '--status', 'draft']));
    assert.match(table.stdout, /│ id\s+│ title\s+│ status/);
    assert.match(table.stdout, new RegExp(`│ ${created.id} │ Renamed\\s+│ draft`));
    const byGroup = json(await owner.run(['courses', 'list', '--status', 'draft', '--json']));
    const byOperationId = json(await owner.run(['listCourses', '--status', 'draft', '--json']));
    assert.deepEqual(byOperationId, byGroup);

    const got = ok(await owner.run(['courses', 'get', String(created.id)]));
    assert.match(got.stdout, /│ title\s+│ Renamed/);
    assert.equal(ok(await owner.run(['courses', 'delete', String(created.id)])).stdout, 'Done.\n');
    const gone = await owner.run(['courses', 'get', String(created.id)]);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, 'Error: No such course. (not_found)\n');
  });

  test('bad input: usage errors exit 2 before any request; the server’s field errors are printed with exit 1', async () => {
    const badNumber = await owner.run(['courses', 'list', '--limit', 'ten']);
    assert.equal(badNumber.code, 2);
    assert.match(badNumber.stderr, /--limit <integer>' argument 'ten' is invalid\. not an integer/);
    const badChoice = await owner.run(['courses', 'list', '--status', 'sleeping']);
    assert.equal(badChoice.code, 2);
    assert.match(badChoice.stderr, /Allowed choices are draft, published, archived/);
    const unknown = await owner.run(['courses', 'lst']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'lst'[\s\S]*Did you mean list\?/);
    const missing = await owner.run(['courses', 'create']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Missing: --title \(or give them in --data\)/);
    const invalid = await owner.run(['lecturers', 'create', '--name', '']);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^Error: .*\(invalid_request\)\n {2}name: /);
  });

  /** A course is published only with a published lesson in a published section: one, through the API. */
  async function giveALesson(courseId: string) {
    const api = apiClient(server.url, credentials(owner.home)[profile].access_token);
    const section = await api.post<{ id: string }>(`/api/v1/courses/${courseId}/sections`, { title: 'Start' });
    assert.equal(section.status, 201, JSON.stringify(section.body));
    const lesson = await api.post<{ id: string }>(`/api/v1/sections/${section.body.id}/lessons`, {
      title: 'Hello',
      body: 'Hi.',
    });
    assert.equal(lesson.status, 201, JSON.stringify(lesson.body));
    assert.equal((await api.post(`/api/v1/sections/${section.body.id}/publish`)).status, 200);
    assert.equal((await api.post(`/api/v1/lessons/${lesson.body.id}/publish`)).status, 200);
  }

  test('--all follows the cursor across pages and prints JSON lines, one item each', async () => {
    const api = apiClient(server.url, credentials(owner.home)[profile].access_token);
    for (let i = 0; i < 5; i++) assert.equal((await api.post('/api/v1/lecturers', { name: `Paged ${i}` })).status, 201);
    const all = ok(await owner.run(['lecturers', 'list', '--all', '--limit', '2']));
    const lines = all.stdout.trim().split('\n');
    const items = lines.map((line) => JSON.parse(line) as { id: string; name: string });
    assert.equal(items.length, 5);
    assert.equal(new Set(items.map((i) => i.id)).size, 5);
    assert.deepEqual(items.map((i) => i.name).sort(), ['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4']);
    const onePage = ok(await owner.run(['lecturers', 'list', '--limit', '2']));
    assert.match(onePage.stdout, /More: --starting-after lec_\w+ \(or --all for every page\)/);
  });

  test('storage upload declares the asset, sends its bytes and prints the ready asset', async () => {
    const file = join(owner.home, 'notes.pdf');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300_000, 'x'), Buffer.from('\n%%EOF\n')]),
    );
    const asset = json(await owner.run(['storage', 'upload', file, '--json']));
    assert.equal(asset.status, 'ready');
    assert.equal(asset.purpose, 'pdf');
    assert.equal(asset.filename, 'notes.pdf');
    assert.equal(asset.byte_size, statSync(file).size);
    assert.equal(asset.sha256, execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]);
  });

  test('a bulk job whose rows partly failed exits 5 and prints the failed rows', async () => {
    const course = json(await owner.run(['courses', 'create', '--title', 'Half bulk', '--json']));
    await giveALesson(String(course.id));
    ok(await owner.run(['courses', 'publish', String(course.id)]));
    const rows = [
      { email: 'half1@school.test', course_id: course.id },
      { email: 'not an address', course_id: course.id },
    ];
    const result = await owner.run(['students', 'bulk-enroll', '--rows', JSON.stringify(rows)]);
    assert.equal(result.code, 5, result.stderr);
    assert.match(result.stderr, /^Error: 1 of 2 rows failed \(listed above\); the others were done\.$/m);
    assert.match(result.stderr, /│ 1 +│ invalid +│ email/);
    assert.doesNotMatch(result.stderr, /half1@/, 'only the failed rows');
    const asJson = await owner.run(['students', 'bulk-enroll', '--rows', JSON.stringify(rows), '--json']);
    assert.equal(asJson.code, 5);
    assert.equal(JSON.parse(asJson.stdout).status, 'succeeded', 'the whole job on stdout');
  });

  test('an operation that answers a file writes its bytes to stdout or --output, with a GET and no body', async () => {
    const form = json(
      await owner.run([
        'forms',
        'create',
        '--title',
        'Contact',
        '--fields',
        JSON.stringify([{ name: 'message', label: 'Message', type: 'long_text' }]),
        '--json',
      ]),
    );
    const header = 'Submission,Submitted at,Message,Signed-in user\r\n';
    const out = ok(await owner.run(['forms', 'export-submissions', String(form.id)]));
    assert.equal(out.stdout, header);
    ok(await owner.run(['forms', 'export-submissions', String(form.id), '--output', 'contact.csv']));
    assert.equal(readFileSync(join(owner.home, 'contact.csv'), 'utf8'), header);
    const missing = await owner.run(['forms', 'export-submissions', 'frm_01j9x2k7m4n6p8q3r5s7t9v2w4']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /\(not_found\)/);
  });

  test('bulk enrollment follows its job to the end and prints the finished job', async () => {
    const course = json(await owner.run(['courses', 'create', '--title', 'Bulk', '--json']));
    await giveALesson(String(course.id));
    ok(await owner.run(['courses', 'publish', String(course.id)]));
    const rows = [1, 2, 3].map((n) => ({ email: `bulk${n}@school.test`, name: `Bulk ${n}`, course_id: course.id }));
    const job = json(await owner.run(['students', 'bulk-enroll', '--rows', JSON.stringify(rows), '--json']));
    assert.equal(job.status, 'succeeded');
    assert.deepEqual(job.progress, { done: 3, total: 3 });
    assert.deepEqual(
      (job.results as { status: string }[]).map((r) => r.status),
      ['enrolled', 'enrolled', 'enrolled'],
    );
    const queued = json(
      await owner.run(['students', 'bulk-enroll', '--rows', JSON.stringify(rows), '--no-wait', '--json']),
    );
    assert.match(String(queued.status), /^(queued|running)$/, '--no-wait prints the job as accepted, unfinished');
    assert.notDeepEqual(queued.progress, { done: 3, total: 3 });
  });

  test('an expired access token refreshes by itself, and the rotated refresh token is stored', async () => {
    const before = credentials(owner.home)[profile];
    expireStoredToken(owner.home, profile);
    ok(await owner.run(['school', 'get']));
    const after = credentials(owner.home)[profile];
    assert.notEqual(after.access_token, before.access_token);
    assert.notEqual(after.refresh_token, before.refresh_token);
    assert.ok(after.expires_at > Date.now());
  });

  test('two runs at once with an expired token take turns refreshing: both succeed, and the login still works', async () => {
    const before = credentials(owner.home)[profile];
    expireStoredToken(owner.home, profile);
    const both = await Promise.all([owner.run(['school', 'get', '--json']), owner.run(['school', 'get', '--json'])]);
    for (const result of both) ok(result);
    const after = credentials(owner.home)[profile];
    assert.notEqual(after.refresh_token, before.refresh_token);
    expireStoredToken(owner.home, profile);
    ok(await owner.run(['school', 'get']));
    assert.equal(existsSync(refreshLockPath({ HOME: owner.home }, profile)), false, 'the lock is gone');
  });

  test('a refresh that finds the grant revoked asks to log in again', async () => {
    const user = cliUser(people.staff);
    ok(await user.run(['login', server.url, '--scope', 'account:write']));
    const clientId = config(user.home).profiles[profile].client_id;
    // The person disconnects the CLI (as from the connected-apps page), using the CLI itself.
    ok(await user.run(['account', 'revoke-connected-app', clientId]));
    expireStoredToken(user.home, profile);
    const ended = await user.run(['school', 'get']);
    assert.equal(ended.code, 3);
    assert.match(
      ended.stderr,
      new RegExp(`^Error: Your login to ${server.url} has ended \\(it was revoked or has expired\\)`),
    );
    assert.match(ended.stderr, new RegExp(`\\nRun: lyceum login ${server.url}\\n$`));
    assert.equal(credentials(user.home)[profile], undefined, 'the dead tokens are forgotten');
  });

  test('--no-browser prints the address; an answer naming another issuer (RFC 9207) or state is refused', {
    timeout: 30_000,
  }, async () => {
    const user = cliUser(people.staff);
    for (const [forged, message] of [
      [{ iss: 'https://evil.example' }, /The answer came from another issuer \(https:\/\/evil\.example\)/],
      [{ state: 'not-the-one' }, /The answer does not belong to this login \(state differs\)/],
    ] as const) {
      const child = spawn(process.execPath, [BIN, 'login', server.url, '--no-browser'], {
        env: user.env as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const printed = new Promise<URL>((resolve) => {
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          const url = /Open this address in a browser to sign in to .*:\n {2}(\S+)\n/.exec(stderr)?.[1];
          if (url) resolve(new URL(url));
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const url = await printed;
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('resource'), server.url);
      const callback = new URL(url.searchParams.get('redirect_uri') ?? '');
      assert.match(callback.href, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const answer: Record<string, string> = { code: 'forged', state: url.searchParams.get('state') ?? '' };
      answer.iss = server.config.BASE_URL;
      callback.search = new URLSearchParams({ ...answer, ...forged }).toString();
      assert.equal((await fetch(callback)).status, 200);
      assert.equal(await exited, 3);
      assert.match(stderr, message);
    }
    assert.equal(existsSync(credentialsPath(user.home)), false, 'nothing stored');
  });

  test('a browser step that fails ends the login at once with its reason (no wait for the login timeout)', async () => {
    const user = cliUser(
      { email: people.staff.email, password: 'not-the-password' },
      {
        LYCEUM_TEST_OPENER_TIMEOUT_MS: '1000',
      },
    );
    const failed = await user.run(['login', server.url]);
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /^Error: Not signed in: the test browser failed: .*\(opener_failed\)$/m);
    assert.doesNotMatch(failed.stderr, /No answer from the browser/);
  });

  test('declining on the consent page ends the login with the school’s reason', async () => {
    const user = cliUser(people.staff, { LYCEUM_TEST_DECISION: 'deny' });
    const denied = await user.run(['login', server.url]);
    assert.equal(denied.code, 3);
    assert.match(denied.stderr, /^Error: Not signed in: .*\(access_denied\)$/m);
  });

  test('a student told to log in for a scope their role can never hold is told so, exit 3, with no advice to log in again', async () => {
    const asStudent = { LYCEUM_TEST_EMAIL: people.student.email, LYCEUM_TEST_PASSWORD: people.student.password };
    const student = await owner.run(
      ['login', server.url, '--profile', 'as-student', '--scope', 'courses:write'],
      asStudent,
    );
    assert.equal(student.code, 3, student.stderr);
    assert.match(student.stdout, /as Stu Dent <stu\.dent@school\.test> \(profile as-student\)/);
    assert.match(student.stdout, /^Granted: openid profile email courses:read$/m, 'signed in all the same');
    assert.match(
      student.stderr,
      new RegExp(
        `^Error: Your role at ${server.url} can never hold courses:write, so it was not granted \\(signing in again will not change that\\)\\.$`,
        'm',
      ),
    );
    assert.doesNotMatch(student.stderr, /Run: lyceum login/);

    const profiles = json<{ current: string; name: string; user: string }[]>(await owner.run(['profiles', '--json']));
    assert.deepEqual(
      profiles.map((p) => [p.name, p.user, p.current]),
      [
        [profile, 'owner@school.test', ''],
        ['as-student', 'stu.dent@school.test', '*'],
      ],
    );
    assert.equal(json(await owner.run(['whoami', '--json', '--profile', profile])).email, 'owner@school.test');
    assert.equal(json(await owner.run(['whoami', '--json'], { LYCEUM_PROFILE: profile })).email, 'owner@school.test');

    // The write the school refuses: the login learnt the role cannot hold the scope, so no step-up is suggested.
    const refused = await owner.run(['courses', 'create', '--title', 'No']);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /can never hold courses:write/);
    assert.doesNotMatch(refused.stderr, /Run: lyceum login/);

    // A login without --scope asks for everything: the role decides, and the grant is all it may hold.
    const full = ok(await owner.run(['login', server.url, '--profile', 'as-student'], asStudent));
    assert.match(full.stdout, /^Granted: .*courses:read.*account:write/m);
    assert.doesNotMatch(full.stdout, /^Granted: .*:write.*courses:write/m);
    assert.match(full.stdout, /^Not granted \(your role can never hold them\): .*courses:write/m);
    assert.match(config(owner.home).profiles['as-student'].role_scopes, /account:write/);
    const again = await owner.run(['lecturers', 'create', '--name', 'No']);
    assert.equal(again.code, 3);
    assert.match(
      again.stderr,
      /needs the lecturers:write scope.*\nYour role at this school can never hold lecturers:write \(signing in again will not change that\)\. Your role may grant: openid /,
    );
    assert.doesNotMatch(again.stderr, /Run: lyceum login/);
    ok(await owner.run(['profiles', 'use', profile]));
    assert.equal(json(await owner.run(['whoami', '--json'])).email, 'owner@school.test');
  });

  test('login without --scope asks for every scope the role may grant, so the first write needs no second consent', async () => {
    const staff = cliUser(people.staff);
    const login = ok(await staff.run(['login', server.url]));
    const granted = /^Granted: (.*)$/m.exec(login.stdout)?.[1]?.split(' ') ?? [];
    for (const scope of ['courses:read', 'courses:write', 'lecturers:write', 'forms:read', 'storage:write'])
      assert.ok(granted.includes(scope), `${scope} in ${granted.join(' ')}`);
    assert.doesNotMatch(login.stdout, /Not granted/, 'staff may hold every scope');
    const browserSteps = () => readFileSync(join(staff.home, 'opener.log'), 'utf8').match(/^at /gm)?.length;
    const consents = browserSteps();
    json(await staff.run(['courses', 'create', '--title', 'First write', '--json']));
    json(await staff.run(['lecturers', 'create', '--name', 'Second area', '--json']));
    assert.equal(browserSteps(), consents, 'no browser opened again');
  });

  test('a stale command tree is revalidated with its ETag: unchanged answers 304, a changed one is fetched again', async () => {
    const cachePath = commandCache({ HOME: owner.home }, server.url, () => undefined).path;
    const cached = JSON.parse(readFileSync(cachePath, 'utf8'));
    assert.match(cached.etag, /^"[\w-]{32}"$/);
    writeFileSync(cachePath, JSON.stringify({ ...cached, marker: 'kept while the ETag matches' }));
    ok(await owner.run(['courses', 'list']));
    assert.equal(JSON.parse(readFileSync(cachePath, 'utf8')).marker, 'kept while the ETag matches');

    // An older tree without courses: the command is unknown there, so the CLI waits for the revalidation.
    const older = cached.operations.filter((op: { group: string }) => op.group !== 'courses');
    writeFileSync(cachePath, JSON.stringify({ ...cached, etag: '"older"', operations: older }));
    ok(await owner.run(['courses', 'list']));
    const renewed = JSON.parse(readFileSync(cachePath, 'utf8'));
    assert.equal(renewed.etag, cached.etag);
    assert.ok(renewed.operations.some((op: { operationId: string }) => op.operationId === 'listCourses'));
  });

  test('completion scripts for bash, zsh and fish list the school’s commands; bash completes them', async () => {
    const bash = ok(await owner.run(['completion', 'bash'])).stdout;
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `${bash}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _lyceum; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      ).trim();
    assert.deepEqual(complete('lyceum cour').split(' '), ['courses']);
    assert.deepEqual(complete('lyceum courses un').split(' '), ['unpublish']);
    assert.match(complete('lyceum courses list --st'), /--status/);
    assert.match(complete('lyceum membership-plans cr'), /create/);
    const zsh = ok(await owner.run(['completion', 'zsh'])).stdout;
    assert.match(zsh, /^#compdef lyceum/);
    assert.match(
      zsh,
      /'courses'\) offered=\(list create get update delete publish publish-with-contents unpublish archive/,
    );
    const fish = ok(await owner.run(['completion', 'fish'])).stdout;
    assert.match(
      fish,
      /complete -c lyceum -n '__fish_seen_subcommand_from courses; and not __fish_seen_subcommand_from .*' -a 'publish'/,
    );
    const wrong = await owner.run(['completion', 'powershell']);
    assert.equal(wrong.code, 2);
  });

  test('zsh completes the school’s commands from its script', { skip: missing('zsh') }, async () => {
    const script = ok(await owner.run(['completion', 'zsh'])).stdout;
    // Outside an interactive shell compadd and compdef are stand-ins: compadd prints what it was given.
    const complete = (...line: string[]) =>
      execFileSync(
        'zsh',
        [
          '-f',
          '-c',
          `compdef() { :; }; compadd() { shift; print -r -- "$@"; }\n${script}\nwords=(${line.map((w) => `'${w}'`).join(' ')}); CURRENT=${line.length}; _lyceum`,
        ],
        { encoding: 'utf8' },
      )
        .trim()
        .split(' ');
    assert.ok(complete('lyceum', '').includes('courses'));
    assert.ok(complete('lyceum', 'courses', '').includes('unpublish'));
    assert.ok(complete('lyceum', 'courses', 'list', '--st').includes('--status'));
  });

  test('fish completes the school’s commands from its script', { skip: missing('fish') }, async () => {
    const script = join(owner.home, 'lyceum.fish');
    writeFileSync(script, ok(await owner.run(['completion', 'fish'])).stdout);
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${script}; complete -C '${line}'`], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((entry) => entry.split('\t')[0]);
    assert.deepEqual(complete('lyceum cour'), ['courses']);
    assert.ok(complete('lyceum courses un').includes('unpublish'));
    assert.ok(complete('lyceum courses list --st').includes('--status'));
  });

  test('the stored tokens never appear in what login, whoami, list or logout print', async () => {
    const user = cliUser(people.staff);
    const printed: string[] = [];
    const run = async (args: string[]) => {
      const result = ok(await user.run(args));
      printed.push(result.stdout, result.stderr);
    };
    const seen: Record<string, string>[] = [];
    const remember = () => seen.push(credentials(user.home)[profile]);
    await run(['login', server.url]);
    remember();
    await run(['whoami']);
    await run(['whoami', '--json']);
    expireStoredToken(user.home, profile);
    await run(['courses', 'list']);
    remember();
    await run(['lecturers', 'list', '--all']);
    await run(['logout']);
    const secrets = seen.flatMap((tokens) => [tokens.access_token, tokens.refresh_token]);
    assert.equal(new Set(secrets).size, 4, 'the refresh rotated both');
    for (const secret of secrets) {
      assert.ok(secret && secret.length >= 20);
      for (const text of printed) assert.equal(text.includes(secret), false, `a token was printed:\n${text}`);
    }
  });

  test('a logout the school cannot answer still forgets the tokens, and says they may stay valid there', async () => {
    const user = cliUser(people.staff);
    ok(await user.run(['login', server.url]));
    const settings = config(user.home);
    settings.profiles[profile].endpoints.revocation = 'http://127.0.0.1:1/revoke';
    writeFileSync(join(user.home, '.config/lyceum/config.json'), JSON.stringify(settings));
    const out = ok(await user.run(['logout']));
    assert.match(out.stderr, /^Warning: the school did not revoke the tokens \(Cannot reach http:\/\/127\.0\.0\.1:1: /);
    assert.match(out.stdout, /its tokens are forgotten here, but may stay valid at the school until they expire\./);
    assert.equal(credentials(user.home)[profile], undefined);
  });

  test('logout revokes both tokens: the server refuses them afterwards', async () => {
    const stored = credentials(owner.home)[profile];
    const clientId = config(owner.home).profiles[profile].client_id;
    assert.equal((await apiClient(server.url, stored.access_token).get('/api/v1/school')).status, 200);
    const out = ok(await owner.run(['logout']));
    assert.match(out.stdout, /Signed out of .* its tokens are revoked and forgotten\./);
    assert.equal(credentials(owner.home)[profile], undefined);

    const api = await apiClient(server.url, stored.access_token).get('/api/v1/school');
    assert.equal(api.status, 401);
    assert.equal((api.body as { error: string }).error, 'invalid_token');
    const introspected = await formPost(server.url, '/api/oauth/introspect', {
      token: stored.access_token,
      client_id: clientId,
    });
    assert.equal(introspected.body.active, false);
    const refreshed = await formPost(server.url, '/api/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: stored.refresh_token,
      client_id: clientId,
    });
    assert.equal(refreshed.body.error, 'invalid_grant');

    const whoami = await owner.run(['whoami']);
    assert.equal(whoami.code, 3);
    assert.match(whoami.stderr, new RegExp(`Not signed in to ${server.url}\\.\\nRun: lyceum login ${server.url}`));
    // Signed out, public reads still work (anonymously); an empty list says why instead of "Nothing found.".
    ok(await owner.run(['courses', 'list']));
    const empty = await owner.run(['events', 'list']);
    assert.equal(empty.code, 3);
    assert.match(
      empty.stderr,
      new RegExp(`^Error: Not signed in to ${server.url}: nothing in the public view\\.\\nRun: lyceum login`, 'm'),
    );
    assert.doesNotMatch(empty.stdout, /Nothing found/);
    const own = await owner.run(['students', 'list']);
    assert.equal(own.code, 3);
    assert.match(
      own.stderr,
      new RegExp(`^Error: Not signed in to ${server.url}\\.\\nRun: lyceum login ${server.url}$`, 'm'),
    );
  });
});
