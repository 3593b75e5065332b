import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemoSchool } from '../../../src/demo/seed.ts';
import { adminScreens } from '../../support/admin-pages.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

for (const engine of engines) {
  describe(`every admin screen of a school with data (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    before(async () => {
      server = await startTestServer(engine);
      const demo = await seedDemoSchool(server.database.db);
      const account = demo.accounts.find((a) => a.role === 'owner');
      owner = new WebClient(server.url);
      const signedIn = await owner.submit('/signin', '/signin', {
        email: account?.email ?? '',
        password: account?.password ?? '',
      });
      assert.equal(signedIn.status, 303);
    });
    after(() => server.close());

    test('each list, object, form and operation screen answers 200 with the admin menu', async () => {
      const screens = await adminScreens(owner);
      assert.ok(screens.length > 40, `found only ${screens.length} screens: ${screens.join(' ')}`);
      const broken: string[] = [];
      for (const path of screens) {
        const page = await owner.get(path);
        if (page.status !== 200 || !page.text.includes('aria-label="Admin"')) broken.push(`${path}: ${page.status}`);
      }
      assert.deepEqual(broken, []);
    });
  });
}
