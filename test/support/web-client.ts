import { Agent, fetch, type Response } from 'undici';

/** A cookie-keeping HTTP client for the server-rendered pages: what a browser does, minus the rendering. */
export class WebClient {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  /** Its own connection pool, so a restarted server is never sent a request on a socket of the old one. */
  private readonly agent = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });

  constructor(base: string) {
    this.base = base;
  }

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    const response = await fetch(new URL(path, this.base), {
      method,
      redirect: 'manual',
      dispatcher: this.agent,
      headers: { ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}), ...init.headers },
      body: init.body,
    });
    this.remember(response);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, location: response.headers.get('location') };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  postForm(path: string, fields: Record<string, string>) {
    return this.request('POST', path, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** GETs a page and posts its form back with the page's CSRF token plus `fields`. */
  async submit(pagePath: string, actionPath: string, fields: Record<string, string>) {
    const page = await this.get(pagePath);
    const csrf = csrfOf(page.text);
    return this.postForm(actionPath, { _csrf: csrf, ...fields });
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in page: ${html.slice(0, 300)}`);
  return match[1];
}

export const OWNER = { name: 'Ada Owner', email: 'owner@school.test', password: 'correct horse battery' };

/** Completes first-run setup through the real setup page and returns the signed-in owner's client. */
export async function completeSetup(base: string, setupUrl: string, school = 'Test Academy') {
  const client = new WebClient(base);
  const url = new URL(setupUrl);
  const token = url.searchParams.get('token') ?? '';
  const response = await client.submit(`/setup?token=${encodeURIComponent(token)}`, '/setup', {
    token,
    school_name: school,
    default_currency: 'EUR',
    timezone: 'Europe/Berlin',
    owner_name: OWNER.name,
    owner_email: OWNER.email,
    owner_password: OWNER.password,
  });
  if (response.status !== 303) throw new Error(`setup failed: ${response.status} ${response.text.slice(0, 500)}`);
  return client;
}

/** A browser-like client signed in as `person` through the real sign-in page. */
export async function signedInClient(base: string, person: { email: string; password: string }) {
  const client = new WebClient(base);
  const response = await client.submit('/signin', '/signin', { email: person.email, password: person.password });
  if (response.status !== 303) throw new Error(`sign-in refused (${response.status}): ${response.text.slice(0, 300)}`);
  return client;
}

const decode = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '',
  );

/**
 * What a browser would post for the form at `action` in a page, untouched: text boxes and hidden fields with their
 * values, checked boxes, each select's chosen option and each textarea's text.
 */
export function formDefaults(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const values: Record<string, string> = {};
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attr(tag, 'name');
    if (!name) continue;
    if (/type="checkbox"/.test(tag)) {
      if (/\schecked\b/.test(tag)) values[name] = 'on';
    } else values[name] = decode(attr(tag, 'value') ?? '');
  }
  for (const [, tag, options] of form.matchAll(/<select\b([^>]*)>(.*?)<\/select>/gs)) {
    const name = attr(tag ?? '', 'name');
    if (!name) continue;
    const chosen =
      /<option([^>]*)\sselected[^>]*>(.*?)<\/option>/s.exec(options ?? '') ??
      /<option([^>]*)>(.*?)<\/option>/s.exec(options ?? '');
    values[name] = decode(attr(chosen?.[1] ?? '', 'value') ?? chosen?.[2] ?? '');
  }
  for (const [, tag, text] of form.matchAll(/<textarea\b([^>]*)>(.*?)<\/textarea>/gs)) {
    const name = attr(tag ?? '', 'name');
    if (name) values[name] = decode(text ?? '');
  }
  return values;
}

/** Fills in a page's form as a person would (everything else left as the page shows it) and posts it. */
export async function fillIn(client: WebClient, pagePath: string, action: string, changes: Record<string, string>) {
  const page = await client.get(pagePath);
  if (page.status !== 200) throw new Error(`${pagePath} answered ${page.status}`);
  return client.postForm(action, { ...formDefaults(page.text, action), ...changes });
}
