import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { apiClient, schoolWithPeople } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { OWNER } from '../support/web-client.ts';
import { BIN, cliUser } from './run-cli.ts';

const WIDTH = 100;
const HEIGHT = 40;

/**
 * What a person sees: each command runs in a detached tmux session of a fixed size (a real terminal, so stdout and
 * stderr are TTYs), and the test reads the screen with `tmux capture-pane`.
 */
function terminal(home: string) {
  const socket = `lyceum-cli-test-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-s',
    'cli',
    '-x',
    String(WIDTH),
    '-y',
    String(HEIGHT),
    '-e',
    `HOME=${home}`,
    'bash --norc --noprofile',
  );
  tmux('set-option', '-t', 'cli', 'status', 'off');
  const screen = () => tmux('capture-pane', '-p', '-t', 'cli');
  let runs = 0;
  return {
    screen,
    /** Types a command into a cleared screen and waits (up to 30 s) until its exit status is printed after it. */
    async run(args: string[]): Promise<{ screen: string; code: number }> {
      tmux('send-keys', '-t', 'cli', 'clear', 'Enter');
      // A marker of this run's own: the screen may still show the previous command's end until the shell clears it.
      runs += 1;
      const marker = `EXIT${runs}`;
      const command = `${process.execPath} ${BIN} ${args.map((a) => `'${a}'`).join(' ')}; echo "${marker}=$?"`;
      tmux('send-keys', '-t', 'cli', '-l', command);
      tmux('send-keys', '-t', 'cli', 'Enter');
      const deadline = Date.now() + 30_000;
      for (;;) {
        const text = screen();
        const exit = new RegExp(`^${marker}=(\\d+)$`, 'm').exec(text);
        if (exit) return { screen: text, code: Number(exit[1]) };
        if (Date.now() > deadline) throw new Error(`the command did not finish:\n${text}`);
        // Polling the screen for the command's end, not waiting for time to pass.
        await delay(50);
      }
    },
    close: () => tmux('kill-server'),
  };
}

describe('the lyceum CLI in a terminal (tmux)', () => {
  let server: TestServer;
  let term: ReturnType<typeof terminal>;
  let home: string;

  before(async () => {
    server = await startTestServer('sqlite');
    await schoolWithPeople(server);
    const user = cliUser(OWNER);
    home = user.home;
    const login = await user.run(['login', server.url, '--scope', 'all']);
    assert.equal(login.code, 0, login.stderr);
    const token = JSON.parse(
      execFileSync('cat', [join(home, '.config/lyceum/credentials.json')], { encoding: 'utf8' }),
    )[new URL(server.url).host].access_token;
    const api = apiClient(server.url, token);
    for (const title of ['Watercolour basics', 'Oil painting: a very long course title that has to be cut short']) {
      const course = await api.post<{ id: string }>('/api/v1/courses', { title });
      assert.equal(course.status, 201);
      // Something to learn, so that the course can be published.
      const section = await api.post<{ id: string }>(`/api/v1/courses/${course.body.id}/sections`, { title: 'Start' });
      const lesson = await api.post<{ id: string }>(`/api/v1/sections/${section.body.id}/lessons`, {
        title: 'Hi',
        body: 'Hi.',
      });
      assert.equal((await api.post(`/api/v1/sections/${section.body.id}/publish`)).status, 200);
      assert.equal((await api.post(`/api/v1/lessons/${lesson.body.id}/publish`)).status, 200);
    }
    term = terminal(home);
  });
  after(async () => {
    term?.close();
    await server.close();
  });

  test('a list is a table that fits the terminal: naming columns first, long values cut, nothing wider than the screen', async () => {
    const { screen, code } = await term.run(['courses', 'list']);
    assert.equal(code, 0, screen);
    const lines = screen.split('\n').filter((line) => /[┌│└├]/.test(line));
    assert.match(lines[0] ?? '', /^┌─+┬─+┬/);
    assert.match(lines[1] ?? '', /^│ id\s+│ title\s+│ status │$/, 'in order, up to the first that does not fit');
    assert.ok(
      lines.some((l) => /│ crs_\w{26} │ Watercolour basics\s+│ draft\s+│/.test(l)),
      screen,
    );
    assert.ok(
      lines.some((l) => /│ Oil painting: a very long course title … │/.test(l)),
      screen,
    );
    for (const line of lines) assert.ok([...line].length <= WIDTH, `wider than the terminal: ${line}`);
    assert.doesNotMatch(lines[1] ?? '', /updated_at/, 'columns that do not fit are left out');
    assert.match(lines.at(-1) ?? '', /^└─+┴/);
  });

  test('an upload shows a progress bar that ends at 100% with the size', async () => {
    const file = join(home, 'lecture.pdf');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3_000_000, 'x'), Buffer.from('\n%%EOF\n')]),
    );
    const { screen, code } = await term.run(['storage', 'upload', file]);
    assert.equal(code, 0, screen);
    assert.match(screen, /^Uploading █{10,} 100% \| 3\.0 MB of 3\.0 MB$/m);
    assert.match(screen, /│ status\s+│ ready/);
    assert.match(screen, /│ filename\s+│ lecture\.pdf/);
  });

  test('bulk enrollment shows its job’s progress to the end; rows that failed are listed and the exit code is 5', async () => {
    const course = (await term.run(['courses', 'list', '--json'])).screen;
    const id = /"id": "(crs_\w+)"/.exec(course)?.[1] ?? '';
    assert.equal((await term.run(['courses', 'publish', id])).code, 0);
    const rows = JSON.stringify([
      { email: 'tmux1@school.test', course_id: id },
      { email: 'not an address', course_id: id },
    ]);
    const { screen, code } = await term.run(['students', 'bulk-enroll', '--rows', rows]);
    assert.equal(code, 5, screen);
    assert.match(screen, /^Working █+ 100% \| 2 of 2$/m);
    assert.match(screen, /│ status\s+│ succeeded/);
    assert.match(screen, /^│ row │ status +│ error +│$/m);
    assert.match(screen, /^│ 1 +│ invalid │ email/m);
    assert.match(screen, /^Error: 1 of 2 rows failed \(listed above\); the others were done\.$/m);
  });

  test('an error is one line with the server’s error_description, and the exit code says what kind', async () => {
    const missing = await term.run(['courses', 'get', 'crs_00000000000000000000000000']);
    assert.equal(missing.code, 1);
    assert.match(missing.screen, /^Error: No such course\. \(not_found\)$/m);
    const usage = await term.run(['courses', 'list', '--limit', 'lots']);
    assert.equal(usage.code, 2);
    assert.match(usage.screen, /^error: option '--limit <integer>' argument 'lots' is invalid\. not an integer$/m);
  });
});
