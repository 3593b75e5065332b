import type { Db } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import type { AccountExport } from './export-schema.ts';
import type { PersonalData } from './ports.ts';
import { toAccount } from './profile.ts';
import type { AccountStore } from './store.ts';

/**
 * "Download my data": everything the school keeps about the person, read in one transaction so the parts agree
 * (an order and the enrollment it made are both there, or neither).
 */
export function accountExport(deps: {
  db: Db;
  clock: Clock;
  store: AccountStore;
  personalData: PersonalData;
  pendingEmail: (userId: string) => Promise<string | undefined>;
}) {
  const { db, clock, store, personalData: data } = deps;
  return {
    async exportData(userId: string): Promise<AccountExport> {
      const pending = await deps.pendingEmail(userId);
      return db.transaction().execute(async (trx) => {
        const row = await store.findById(trx, userId);
        if (!row) throw errors.notFound('account');
        const enrollments = await data.enrollments(trx, userId);
        const certificates = await data.certificates(trx, userId);
        const titles = await data.courseTitles(trx, [...new Set(enrollments.map((e) => e.course_id))]);
        return {
          exported_at: clock.now().toISOString(),
          profile: toAccount(row, pending),
          enrollments: enrollments.map((e) => ({ ...e, course_title: titles.get(e.course_id) ?? '' })),
          lesson_completions: await data.lessonCompletions(trx, userId),
          playback_positions: await data.playbackPositions(trx, userId),
          orders: await data.orders(trx, userId),
          certificates,
          form_submissions: await data.formSubmissions(trx, userId, row.email),
        };
      });
    },
  };
}
