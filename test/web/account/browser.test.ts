import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer } from '../../support/server.ts';

for (const engine of engines) {
  describe(`in a real browser (${engine})`, () => {
    test('complete setup, sign out, sign in by the labels, sign up a student', async (t) => {
      const server = await startTestServer(engine);
      const browser = await launchChromium();
      const shots = screenshotDir(`identity-${engine}`);
      t.diagnostic(`screenshots: ${shots}`);
      console.log(`# screenshots of the identity pages (${engine}): ${shots}`);
      try {
        const page = await browser.newPage();
        const shot = (name: string) => photograph(page, join(shots, `${name}.png`));

        await page.goto(server.setupUrl ?? '');
        await shot('01-setup');
        await page.getByLabel('School name').fill('Browser Academy');
        await page.getByLabel('Default currency').fill('EUR');
        await page.getByLabel('Time zone').fill('Europe/Paris');
        await page.getByLabel('Your name').fill('Grace Owner');
        await page.getByLabel('Email').fill('grace@school.test');
        await page.getByLabel('Password').fill('a very good password');
        await page.getByRole('button', { name: 'Create school' }).click();
        await page.waitForURL(`${server.url}/`);
        assert.match((await page.textContent('main')) ?? '', /Welcome( back)?, Grace Owner/);
        assert.match(await page.title(), /Browser Academy/);
        await shot('02-home-signed-in');

        // A mistyped address shows the school's 404 page, not the API's JSON.
        const missing = await page.goto(`${server.url}/no-such-page`);
        assert.equal(missing?.status(), 404);
        assert.match(await page.title(), /^Not found · Browser Academy$/);
        assert.match((await page.textContent('main')) ?? '', /There is no page at \/no-such-page/);
        assert.match((await page.textContent('header')) ?? '', /Signed in as Grace Owner/);
        await shot('02b-not-found');
        await page.goto(`${server.url}/`);

        await page.getByRole('link', { name: 'Sign out' }).click();
        await shot('03-signout');
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL(`${server.url}/signin`);
        await shot('04-signin');

        await page.getByLabel('Email').fill('grace@school.test');
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        assert.match((await page.getByRole('alert').textContent()) ?? '', /email or password is incorrect/);
        await shot('05-signin-failed');

        await page.getByLabel('Email').fill('grace@school.test');
        await page.getByLabel('Password').fill('a very good password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${server.url}/`);
        assert.match((await page.textContent('main')) ?? '', /Welcome( back)?, Grace Owner/);

        const student = await browser.newPage();
        await student.goto(`${server.url}/signup`);
        await student.getByLabel('Name').fill('Sam Student');
        await student.getByLabel('Email').fill('sam@school.test');
        await student.getByLabel('Password').fill('student password 1');
        await photograph(student, join(shots, '06-signup.png'));
        await student.getByRole('button', { name: 'Create account' }).click();
        await student.waitForURL(`${server.url}/`);
        assert.match((await student.textContent('main')) ?? '', /Welcome( back)?, Sam Student/);
        await photograph(student, join(shots, '07-student-home.png'));

        // The setup link is dead after use.
        const again = await page.goto(server.setupUrl ?? '');
        assert.equal(again?.status(), 404);
      } finally {
        await browser.close();
        await server.close();
      }
    });
  });
}
