import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import type { TestServer } from '../support/server.ts';
import { type Asset, startStorageServer, uploadAsset } from '../support/storage.ts';

/** Every character that can make a name read differently from what it is. */
const DISGUISES = [
  '\u202A', // left-to-right embedding
  '\u202B', // right-to-left embedding
  '\u202C', // pop directional formatting
  '\u202D', // left-to-right override
  '\u202E', // right-to-left override
  '\u2066', // left-to-right isolate
  '\u2067', // right-to-left isolate
  '\u2068', // first strong isolate
  '\u2069', // pop directional isolate
  '\u200E', // left-to-right mark
  '\u200F', // right-to-left mark
  '\u200B', // zero-width space
  '\uFEFF', // zero-width no-break space
  '\u0085', // a C1 control (next line)
];

for (const engine of engines) {
  describe(`download names cannot disguise their extension (${engine})`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startStorageServer(engine, 'local');
      const { staff } = await schoolWithPeople(server);
      token = await tokenFor(server, staff, 'storage:write');
    });
    after(() => server.close());

    const disposition = async (asset: Asset) => {
      const served = await fetch(asset.url ?? '');
      await served.arrayBuffer();
      return served.headers.get('content-disposition') ?? '';
    };

    test('bidi overrides, isolates, marks and other invisible characters are taken out of the stored name', async () => {
      // Shown as "invoiceexe.pdf" by a right-to-left override; it is an .exe.
      const asset = await uploadAsset(
        server,
        token,
        { purpose: 'download', filename: `invoice\u202Efdp.exe`, content_type: 'application/octet-stream' },
        Buffer.from('MZ'),
      );
      assert.equal(asset.filename, 'invoicefdp.exe');
      assert.equal(await disposition(asset), `attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`);

      const every = await uploadAsset(
        server,
        token,
        { purpose: 'download', filename: `r${DISGUISES.join('')}ésumé.pdf`, content_type: 'application/pdf' },
        Buffer.from('not really a pdf'),
      );
      assert.equal(every.filename, 'résumé.pdf');
      assert.equal(
        await disposition(every),
        `attachment; filename="r_sum_.pdf"; filename*=UTF-8''${encodeURIComponent('résumé.pdf')}`,
      );
    });

    test('a name that is nothing but invisible characters is refused', async () => {
      const refused = await apiClient(server.url, token).post('/api/v1/storage/assets', {
        purpose: 'download',
        filename: '\u202E\u200B',
        content_type: 'application/octet-stream',
        byte_size: 2,
      });
      assert.equal(refused.status, 400);
      assert.equal((refused.body as { errors: { field: string }[] }).errors[0]?.field, 'filename');
    });

    test('a name stored before the cleaning is cleaned where the download is sent', async () => {
      const asset = await uploadAsset(
        server,
        token,
        { purpose: 'download', filename: 'notes.txt', content_type: 'text/plain' },
        Buffer.from('notes'),
      );
      await server.database.db
        .updateTable('assets')
        .set({ filename: `notes\u2067txt.exe\u2069` })
        .where('id', '=', asset.id)
        .execute();
      assert.equal(await disposition(asset), `attachment; filename="notestxt.exe"; filename*=UTF-8''notestxt.exe`);
    });
  });
}
