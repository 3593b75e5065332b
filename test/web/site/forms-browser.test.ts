import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiClient, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startSmtpServer } from '../../support/smtp.ts';

const PHONE = { width: 390, height: 844 };
const CONSENT = 'I agree that the school keeps my message to answer it.';

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`a visitor sends a form from a school page in Chromium (${engine})`, () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser;
  let staff: ReturnType<typeof apiClient>;
  const shots = screenshotDir(`forms-${engine}`);

  const ok = async <T>(promise: Promise<{ status: number; body: unknown }>) => {
    const response = await promise;
    assert.ok(response.status < 300, JSON.stringify(response.body));
    return response.body as T;
  };

  before(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(engine, { SMTP_URL: smtp.url, JOBS_POLL_MS: '50' });
    const people = await schoolWithPeople(server);
    staff = apiClient(server.url, await tokenFor(server, people.staff, 'pages:read pages:write forms:read'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  test('a bad field is refused next to it with the values kept, a good submission shows the success message; staff are e-mailed; the API lists it', async () => {
    const contact = await ok<{ id: string; slug: string }>(
      staff.post('/api/v1/pages', { title: 'Contact', draft_body: 'Questions about a course? Write to us.' }),
    );
    await ok(staff.post(`/api/v1/pages/${contact.id}/publish`));
    const form = await ok<{ id: string }>(
      staff.post('/api/v1/forms', {
        title: 'Ask us anything',
        page_id: contact.id,
        success_message: 'Thank you! We answer within a day.',
        notify_emails: ['desk@school.test'],
        fields: [
          { name: 'name', label: 'Your name', type: 'text', required: true },
          { name: 'email', label: 'E-mail', type: 'email', required: true, help: 'We answer to this address.' },
          { name: 'topic', label: 'Topic', type: 'choice', options: ['Courses', 'Billing', 'Something else'] },
          { name: 'message', label: 'Message', type: 'long_text', required: true, max_length: 2000 },
          { name: 'newsletter', label: 'Send me the newsletter', type: 'checkbox' },
          { name: 'consent', label: CONSENT, type: 'consent' },
        ],
      }),
    );

    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/p/${contact.slug}`);
      assert.equal(await page.getByRole('heading', { name: 'Ask us anything' }).isVisible(), true);
      assert.equal(
        await page.getByRole('textbox', { name: 'Leave this empty' }).count(),
        0,
        'the honeypot is hidden from assistive technology',
      );
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '1-form.png'));

      await page.getByLabel('Your name').fill('Vera Visitor');
      await page.getByLabel('E-mail').fill('vera at example');
      await page.getByRole('radio', { name: 'Billing' }).check();
      await page.getByRole('textbox', { name: 'Message' }).fill('Can I pay by invoice?');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForLoadState();
      const email = page.getByLabel('E-mail');
      assert.equal(await email.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await page.locator(`#${form.id}-email-error`).textContent(),
        'Enter an e-mail address, like name@example.com.',
      );
      assert.equal(
        await page.locator(`#${form.id}-consent-error`).textContent(),
        'You need to agree to this to send the form.',
      );
      assert.equal(await page.getByLabel('Your name').inputValue(), 'Vera Visitor', 'values kept');
      assert.equal(await email.inputValue(), 'vera at example');
      assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), 'Can I pay by invoice?');
      assert.equal(await page.getByRole('radio', { name: 'Billing' }).isChecked(), true);
      assert.match((await page.getByRole('alert').first().textContent()) ?? '', /Please correct these fields/);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '2-refused.png'));

      await email.fill('vera@example.test');
      await page.getByLabel('Send me the newsletter').check();
      await page.getByLabel(CONSENT).check();
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(`${server.url}/p/${contact.slug}?sent=${form.id}#form-${form.id}`);
      assert.equal(await page.getByRole('status').textContent(), 'Thank you! We answer within a day.');
      assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 0);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '3-sent.png'));
      // Reloading shows the message again and sends nothing (the POST was answered with a redirect).
      await page.reload();
      assert.equal(await page.getByRole('status').textContent(), 'Thank you! We answer within a day.');
    } finally {
      await context.close();
    }

    // Without JavaScript the form works the same: it is a plain HTML form.
    const plain = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const noScript = await plain.newPage();
    try {
      await noScript.goto(`${server.url}/p/${contact.slug}`);
      await noScript.getByLabel('Your name').fill('Noah Script');
      await noScript.getByLabel('E-mail').fill('noah@example.test');
      await noScript.getByRole('textbox', { name: 'Message' }).fill('Do you have evening classes?');
      await noScript.getByLabel(CONSENT).check();
      await noScript.getByRole('button', { name: 'Send' }).click();
      await noScript.waitForURL(/\?sent=/);
      assert.equal(await noScript.getByRole('status').textContent(), 'Thank you! We answer within a day.');
    } finally {
      await plain.close();
    }

    const noticesNow = () => smtp.received.filter((m) => m.subject === 'New submission: Ask us anything');
    // Other messages (the school's own) may arrive too: wait for one more until both notices are in.
    while (noticesNow().length < 2) await smtp.waitFor(smtp.received.length + 1);
    const notices = noticesNow();
    assert.equal(notices.length, 2);
    for (const notice of notices) assert.deepEqual(notice.to, ['desk@school.test']);
    const vera = notices.find((m) => m.text.includes('Vera Visitor'));
    assert.ok(vera, 'the notice of the first submission');
    assert.match(vera.text, /E-mail: vera@example\.test/);
    assert.match(vera.text, /Topic: Billing/);
    assert.match(vera.text, /Send me the newsletter: yes/);
    assert.ok(vera.text.includes(`${CONSENT}: agreed: ${CONSENT}`), 'the statement agreed to');

    const listed = await ok<{ data: { email: string; values: Record<string, unknown> }[] }>(
      staff.get(`/api/v1/forms/${form.id}/submissions`),
    );
    assert.deepEqual(
      listed.data.map((s) => s.email),
      ['noah@example.test', 'vera@example.test'],
    );
    assert.equal(listed.data[1]?.values.consent, CONSENT, 'the statement agreed to is kept with the submission');
  });
});
