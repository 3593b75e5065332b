import { newId } from '../../db/ids.ts';
import { insertWith } from '../../db/request-writes.ts';
import type { LecturersTable } from '../../db/tables.ts';
import { matchesText } from '../../db/text-search.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { StorageService } from '../storage/service.ts';
import type { CoursesPort } from './ports.ts';
import type { Lecturer, LecturerCreate, LecturerListQuery, LecturerUpdate } from './schema.ts';
import type { LecturersStore } from './store.ts';

/** The public profile; the contact address and the account link are for staff only. */
function lecturerOf(row: LecturersTable, staff: boolean, mediaUrl: (assetId: string) => string): Lecturer {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    bio: row.bio,
    avatar_url: row.avatar_asset_id ? mediaUrl(row.avatar_asset_id) : row.avatar_url,
    avatar_asset_id: row.avatar_asset_id ?? null,
    email: staff ? row.email : null,
    user_id: staff ? row.user_id : null,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Lecturer profiles. Anonymous callers and students see active lecturers without email or user link; archived
 * lecturers are 404 to them. Staff see everything. A lecturer listed on a course cannot be deleted, only archived.
 */
export function lecturersService(
  deps: AreaDeps & { store: LecturersStore; storage: StorageService; courses: CoursesPort },
) {
  const { db, clock, store } = deps;
  const toLecturer = (row: LecturersTable, staff: boolean) => lecturerOf(row, staff, deps.storage.publicUrl);
  const checkAvatar = async (id: string | null | undefined) => {
    if (id) await deps.storage.requireReady('avatar_asset_id', id, ['image']);
  };
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('lecturer');
  const blankName = () =>
    errors.invalidRequest('name must not be blank; give the lecturer a name.', [
      { field: 'name', code: 'blank', message: 'Give the lecturer a name.' },
    ]);

  async function loadForWrite(id: string) {
    const row = await store.findById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkUser(userId: string | null | undefined, lecturerId?: string) {
    if (!userId) return;
    if (!(await store.userExists(db, userId))) {
      throw errors.invalidRequest(`Unknown user ${userId}; link an existing user account or leave user_id null.`, [
        { field: 'user_id', code: 'not_found', message: `Unknown user ${userId}` },
      ]);
    }
    const other = await store.linkedToUser(db, userId, lecturerId);
    if (other) throw linkedElsewhere(userId, other);
  }

  const linkedElsewhere = (userId: string, other: string) =>
    errors.conflict(
      `User ${userId} is already linked to lecturer ${other}; ` +
        `unlink it there first (PATCH /api/v1/lecturers/${other} with "user_id": null).`,
    );

  /** A link that lost a race to the unique index gets the same answer as one refused by the check. */
  async function linkWrite(userId: string | null | undefined, lecturerId: string, write: () => Promise<unknown>) {
    try {
      await write();
    } catch (error) {
      if (!userId || !isUniqueViolation(error)) throw error;
      throw linkedElsewhere(userId, (await store.linkedToUser(db, userId, lecturerId)) ?? 'another lecturer');
    }
  }

  async function setStatus(id: string, to: LecturersTable['status']) {
    const row = await loadForWrite(id);
    if (row.status === to) return toLecturer(row, true);
    const changes = { status: to, updated_at: now() };
    await store.update(db, id, changes);
    return toLecturer({ ...row, ...changes }, true);
  }

  return {
    async list(principal: Principal, query: LecturerListQuery) {
      const staff = isStaff(principal);
      let q = store.baseQuery(db);
      if (!staff) q = q.where('status', '=', 'active');
      if (query.status) q = q.where('status', '=', query.status);
      if (query.q) q = q.where(matchesText(deps.config.database.engine, 'lecturers', query.q));
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map((row) => toLecturer(row, staff)) };
    },

    async get(principal: Principal, id: string) {
      const staff = isStaff(principal);
      const row = await store.findById(db, id);
      if (!row || (!staff && row.status !== 'active')) throw notFound();
      return toLecturer(row, staff);
    },

    async create(input: LecturerCreate) {
      const name = input.name.trim();
      if (!name) throw blankName();
      await checkUser(input.user_id);
      await checkAvatar(input.avatar_asset_id);
      const at = now();
      const row: LecturersTable = {
        id: newId('lec'),
        name,
        title: input.title?.trim() ?? '',
        bio: input.bio ?? '',
        avatar_url: input.avatar_url ?? null,
        avatar_asset_id: input.avatar_asset_id ?? null,
        email: input.email ? normalizeEmail(input.email) : null,
        user_id: input.user_id ?? null,
        status: 'active',
        created_at: at,
        updated_at: at,
      };
      const created = toLecturer(row, true);
      await linkWrite(row.user_id, row.id, () => insertWith(db, deps.writes, (ex) => store.insert(ex, row), created));
      return created;
    },

    async update(id: string, input: LecturerUpdate) {
      const row = await loadForWrite(id);
      const changes: Partial<LecturersTable> = { updated_at: now() };
      if (input.name !== undefined) {
        changes.name = input.name.trim();
        if (!changes.name) throw blankName();
      }
      if (input.user_id !== undefined) {
        await checkUser(input.user_id, id);
        changes.user_id = input.user_id;
      }
      if (input.title !== undefined) changes.title = input.title.trim();
      if (input.bio !== undefined) changes.bio = input.bio;
      if (input.avatar_url !== undefined) changes.avatar_url = input.avatar_url;
      if (input.avatar_asset_id !== undefined) {
        await checkAvatar(input.avatar_asset_id);
        changes.avatar_asset_id = input.avatar_asset_id;
      }
      if (input.email !== undefined) changes.email = input.email ? normalizeEmail(input.email) : null;
      await linkWrite(changes.user_id, id, () => store.update(db, id, changes));
      return toLecturer({ ...row, ...changes }, true);
    },

    async delete(id: string) {
      await db.transaction().execute(async (trx) => {
        if (!(await store.findById(trx, id))) throw notFound();
        const courses = await deps.courses.idsListingLecturer(trx, id);
        if (courses.length) {
          throw errors.conflict(
            `This lecturer is listed on ${courses.length === 1 ? 'course' : 'courses'} ${courses.join(', ')}; ` +
              'remove them from the course (PATCH /api/v1/courses/{id} with new lecturer_ids) ' +
              `or archive the lecturer instead (POST /api/v1/lecturers/${id}/archive).`,
          );
        }
        await store.delete(trx, id);
      });
    },

    archive: (id: string) => setStatus(id, 'archived'),
    restore: (id: string) => setStatus(id, 'active'),
  };
}

export type LecturersService = ReturnType<typeof lecturersService>;
