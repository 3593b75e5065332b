/**
 * npm run lighthouse — Lighthouse (the npm package, pinned) on the demo school, in Debian's Chromium with the flags
 * the tests use, on its default mobile profile (a mid-range phone on a slow 4G link, simulated): the home page, the
 * catalog, a course page, a lesson in the student's player and a checkout, signed in where a page needs it. Prints
 * the four category scores of each page as a Markdown table (the README's and docs/performance.md's), and on stderr
 * the audits that scored under 90. The student's player and the checkout are kept out of search engines on purpose
 * (robots.txt and noindex), which Lighthouse's SEO category counts against them.
 *
 * It makes its own school: `npm run demo`'s seeding into a fresh SQLite file and folder, then `npm start`'s server on
 * a free port with the built-in test payments; both are removed at the end. LIGHTHOUSE_THEME=studio|night switches
 * the school's theme first; LIGHTHOUSE_JSON=<folder> keeps each report.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from '../test/support/browser.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The tests' flags (test/support/browser.ts), headless. */
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/**
 * The mobile profile slows the CPU 4×, calibrated for a desktop of Lighthouse's benchmark index ~1,500; on a slower or
 * busy machine (see the table's last column) LIGHTHOUSE_CPU_SLOWDOWN sets another factor, as Lighthouse's own
 * throttling guide advises. Unset, the profile's own.
 */
const CPU_SLOWDOWN = process.env.LIGHTHOUSE_CPU_SLOWDOWN ? Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN) : undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs `node <script>` in the repository with `env`; resolves with its output, rejects on a non-zero exit. */
function run(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}:\n${out}`))));
  });
}

/** A browser's cookie jar for one origin, enough to sign in through the form. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair?.indexOf('=') ?? -1;
        if (pair && at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
    },
  };
}

/** Signs in through the school's own form and returns the session's Cookie header. */
async function signIn(base: string, email: string, password: string): Promise<string> {
  const jar = cookieJar();
  const form = await fetch(`${base}/signin`);
  jar.take(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const answer = await fetch(`${base}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ _csrf: csrf, email, password }),
  });
  jar.take(answer);
  if (answer.status !== 303) throw new Error(`signing in as ${email}: ${answer.status}`);
  return jar.header();
}

const text = async (url: string, cookie?: string) => {
  const response = await fetch(url, cookie ? { headers: { cookie } } : {});
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return response.text();
};

const work = mkdtempSync(join(tmpdir(), 'lyceum-lighthouse-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATABASE_URL: join(work, 'school.db'),
  STORAGE_DIR: join(work, 'files'),
  PORT: String(port),
  HOST: '127.0.0.1',
  PAYMENTS_PROVIDER: 'test',
  LOG_LEVEL: 'error',
};
let server: ReturnType<typeof spawn> | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  process.stderr.write('lighthouse: seeding the demo school…\n');
  const demo = await run('src/demo/main.ts', env);
  const account = (role: string) => {
    const match = new RegExp(`^\\s+${role}\\s+(\\S+)\\s+(\\S+)$`, 'm').exec(demo);
    if (!match?.[1] || !match[2]) throw new Error(`no ${role} account in the demo's report:\n${demo}`);
    return { email: match[1], password: match[2] };
  };
  server = spawn(process.execPath, ['--max-semi-space-size=16', '--max-old-space-size=256', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
    if (i > 120) throw new Error('the school did not become ready in a minute');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const student = await signIn(base, account('student').email, account('student').password);
  const theme = process.env.LIGHTHOUSE_THEME;
  if (theme) {
    const owner = await signIn(base, account('staff').email, account('staff').password);
    const page = await text(`${base}/admin/appearance/theme`, owner);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const saved = await fetch(`${base}/admin/appearance/theme`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner },
      body: new URLSearchParams({ _csrf: csrf, theme }),
    });
    if (saved.status !== 303) throw new Error(`choosing the theme ${theme}: ${saved.status}`);
  }

  // The pages: the course the demo's student is part-way through (its cover, trailer and free previews), the first
  // lesson of it in the student's player, and the checkout of a paid course the student does not have.
  const course = '/courses/watercolour-for-beginners';
  const lesson = /href="\/courses\/watercolour-for-beginners\/lessons\/(les_[0-9a-z]+)"/.exec(
    await text(`${base}${course}`),
  )?.[1];
  if (!lesson) throw new Error('the course page links no free preview');
  const paid = (await (await fetch(`${base}/api/v1/courses?price=paid&limit=100`)).json()) as {
    data: { slug: string }[];
  };
  const mine = await text(`${base}/learn`, student);
  const buyable = paid.data.find((c) => !mine.includes(`/learn/${c.slug}"`));
  if (!buyable) throw new Error('no paid course the student has not got');
  const pages: { name: string; path: string; cookie?: string }[] = [
    { name: 'Home', path: '/' },
    { name: 'Catalog', path: '/courses' },
    { name: 'Course page', path: course },
    { name: 'Lesson (free preview)', path: `${course}/lessons/${lesson}` },
    { name: 'Lesson (player)', path: `/learn/watercolour-for-beginners/${lesson}`, cookie: student },
    { name: 'Checkout', path: `/checkout/course/${buyable.slug}`, cookie: student },
  ];

  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const rows: string[] = [];
  for (const page of pages) {
    process.stderr.write(`lighthouse: ${page.name} (${page.path})…\n`);
    const result = await lighthouse(
      `${base}${page.path}`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        ...(CPU_SLOWDOWN === undefined ? {} : { throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN } }),
        ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
      },
      undefined,
    );
    if (!result) throw new Error(`no report for ${page.path}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
    const benchmark = Math.round(lhr.environment.benchmarkIndex);
    rows.push(
      `| ${page.name} | \`${page.path.replace(/les_[0-9a-z]+/, '<lesson>')}\` | ${scores.join(' | ')} | ${benchmark} |`,
    );
    const low = Object.values(lhr.audits).filter(
      (a) =>
        a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual',
    );
    for (const audit of low)
      process.stderr.write(`  ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}\n`);
    if (process.env.LIGHTHOUSE_JSON) {
      mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
      const file = join(process.env.LIGHTHOUSE_JSON, `${page.name.toLowerCase().replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify(lhr, null, 1));
    }
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as {
    version: string;
  };
  process.stdout.write(
    [
      `Lighthouse ${version}, mobile profile (simulated slow 4G, ${CPU_SLOWDOWN ?? 4}× CPU slowdown), ${CHROMIUM}${theme ? `, theme ${theme}` : ''}:`,
      '',
      '| page | path | performance | accessibility | best practices | SEO | CPU benchmark |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await chrome?.kill();
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
