import { newId } from '../../db/ids.ts';
import type { CertificatesTable, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import { randomToken } from '../../security/tokens.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { CourseFactsPort } from './ports.ts';
import type { Certificate, CertificateListQuery, CertificateRevoke, CertificateVerification } from './schema.ts';
import type { CertificatesStore } from './store.ts';

/**
 * Certificates of completion. One is issued when a person completes a course (in the transaction that completes the
 * enrollment), at most one per person and course. Staff see and revoke every certificate; a student sees their own;
 * anyone holding a certificate's code (its public URL) may verify it. A revoked certificate stays verifiable and says
 * it was revoked, so a shared link never silently vanishes.
 */
export function certificatesService(deps: AreaDeps & { store: CertificatesStore; courses: CourseFactsPort }) {
  const { db, clock, store, config } = deps;
  const notFound = () => errors.notFound('certificate');
  const urlOf = (code: string) => `${config.BASE_URL}/certificates/${code}`;

  const toCertificate = (row: CertificatesTable): Certificate => ({
    id: row.id,
    user_id: row.user_id,
    course_id: row.course_id,
    recipient_name: row.recipient_name,
    course_title: row.course_title,
    status: row.revoked_at ? 'revoked' : 'valid',
    issued_at: row.issued_at,
    revoked_at: row.revoked_at,
    revoked_reason: row.revoked_reason,
    verification_url: urlOf(row.code),
    pdf_url: `${urlOf(row.code)}.pdf`,
    created_at: row.created_at,
  });

  /** The one rule of who sees which certificates: staff all, a signed-in person their own, nobody else any. */
  const ownerFilter = (principal: Principal): string | undefined | null =>
    isStaff(principal) ? undefined : principal.kind === 'user' ? principal.userId : null;

  return {
    /** Issues the certificate of a completed course, once; pass the transaction that completes the enrollment. */
    async issue(ex: Executor, userId: string, courseId: string): Promise<Certificate> {
      const existing = await store.findFor(ex, userId, courseId);
      if (existing) return toCertificate(existing);
      const recipient = await store.recipientName(ex, userId);
      const [course] = await deps.courses.facts(ex, [courseId]);
      if (recipient === undefined || !course) throw notFound();
      const now = clock.now().toISOString();
      await store.insertOnce(ex, {
        id: newId('cer'),
        // 144 random bits: the URL is the credential that lets anyone verify, so it must not be guessable.
        code: randomToken(18),
        user_id: userId,
        course_id: courseId,
        recipient_name: recipient,
        course_title: course.title,
        issued_at: now,
        revoked_at: null,
        revoked_reason: null,
        created_at: now,
      });
      const row = await store.findFor(ex, userId, courseId);
      if (!row) throw new Error('The certificate was not written.');
      return toCertificate(row);
    },

    async list(principal: Principal, query: CertificateListQuery) {
      const owner = ownerFilter(principal);
      if (owner === null) return { data: [], has_more: false, next_cursor: null };
      let q = store.baseQuery(db);
      if (owner !== undefined) q = q.where('user_id', '=', owner);
      if (query.user_id) q = q.where('user_id', '=', query.user_id);
      if (query.course_id) q = q.where('course_id', '=', query.course_id);
      if (query.status) q = q.where('revoked_at', query.status === 'valid' ? 'is' : 'is not', null);
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toCertificate) };
    },

    async get(principal: Principal, id: string) {
      const row = await store.findById(db, id);
      const owner = ownerFilter(principal);
      if (!row || owner === null || (owner !== undefined && row.user_id !== owner)) throw notFound();
      return toCertificate(row);
    },

    async revoke(id: string, input: CertificateRevoke) {
      return db.transaction().execute(async (trx) => {
        const row = await store.findById(trx, id);
        if (!row) throw notFound();
        if (!(await store.revoke(trx, id, clock.now().toISOString(), input.reason ?? null))) {
          throw errors.conflict(`This certificate was already revoked on ${row.revoked_at}.`);
        }
        return toCertificate((await store.findById(trx, id)) as CertificatesTable);
      });
    },

    /** What the public verification page and the PDF show, by the certificate's code. */
    async verify(code: string): Promise<CertificateVerification | undefined> {
      if (!/^[A-Za-z0-9_-]{24}$/.test(code)) return undefined;
      const row = await store.findByCode(db, code);
      return row
        ? {
            code: row.code,
            recipient_name: row.recipient_name,
            course_title: row.course_title,
            issued_at: row.issued_at,
            revoked_at: row.revoked_at,
            revoked_reason: row.revoked_reason,
          }
        : undefined;
    },
  };
}

export type CertificatesService = ReturnType<typeof certificatesService>;
