import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { newId } from '../src/db/ids.ts';
import { hashPassword } from '../src/security/passwords.ts';

/** `courses` courses (a tenth drafts, a third free) and a staff account, written straight into the database. */
export async function seedCatalog(databaseUrl: string, courses: number) {
  const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  const at = Date.now() - courses * 1000;
  for (let start = 0; start < courses; start += 500) {
    const rows = Array.from({ length: Math.min(500, courses - start) }, (_, k) => {
      const i = start + k;
      const created = new Date(at + i * 1000).toISOString();
      return {
        id: newId('crs', at + i * 1000),
        title: `Course ${i}: a study of things`,
        slug: `course-${i}`,
        subtitle: 'Learn it properly',
        description: 'A course with a description of a believable length, long enough to look like a real one.',
        cover_url: null,
        lecturer_ids: '[]',
        price_amount: i % 3 === 0 ? null : 1900 + (i % 50) * 100,
        price_currency: i % 3 === 0 ? null : 'EUR',
        status: i % 10 === 0 ? ('draft' as const) : ('published' as const),
        visibility: 'public' as const,
        enrollment_open: 1 as const,
        published_at: created,
        created_at: created,
        updated_at: created,
      };
    });
    await database.db.insertInto('courses').values(rows).execute();
  }
  const staff = { id: newId('usr'), email: 'bench.staff@school.test', password: 'bench staff password' };
  const now = new Date().toISOString();
  await database.db
    .insertInto('users')
    .values({
      id: staff.id,
      email: staff.email,
      name: 'Bench Staff',
      role: 'staff',
      status: 'active',
      password_hash: await hashPassword(staff.password),
      locale: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await database.close();
  return staff;
}
