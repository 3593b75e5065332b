import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { InternalCalls } from '../../http/internal-calls.ts';
import type { OperationCaller } from '../../operations/operation-calls.ts';
import type { OperationTool } from '../../operations/operation-tools.ts';
import { ownAsset, serveAssets } from '../shared/own-assets.ts';
import type { PageWriter } from '../shared/page-context.ts';
import type { AdminDeps } from './admin-context.ts';
import { registerAuditPage } from './audit-page.ts';
import { indexOperations } from './catalog.ts';
import { registerCouponBatches } from './coupon-batches.ts';
import { registerCourseDrafts } from './course-drafts.ts';
import { registerCurriculumBuilder } from './curriculum-builder.ts';
import { type DeliveryFacts, registerDeliveryPage } from './delivery-page.ts';
import { registerDripEditor } from './drip-editor.ts';
import { registerEventAttendance } from './event-attendance.ts';
import { registerFontsEditor } from './fonts-editor.ts';
import { registerFormExport } from './form-export.ts';
import { adminCalls, adminRouteCalls } from './form-kit/calls.ts';
import type { SchoolClock } from './form-kit/school-time.ts';
import { registerHomeEditor } from './home-editor.ts';
import { registerImageUploads } from './image-upload.ts';
import { registerLessonCaptions } from './lesson-captions.ts';
import { registerLessonMedia } from './lesson-media.ts';
import { registerMenuEditor } from './menu-editor.ts';
import { registerOperationPages } from './operation-pages.ts';
import { registerOutboxPage } from './outbox-page.ts';
import { type DashboardCharts, registerOverviewPage } from './overview-page.ts';
import { registerMarkdownPreview } from './preview.ts';
import { registerQuizBuilder } from './quiz-builder.ts';
import { registerResourcePages } from './resource-pages.ts';
import { registerStudentsImport } from './students-import.ts';
import { registerThemeEditor } from './theme-editor.ts';

/** The owner's admin at /admin: every screen calls the API's own operations as the signed-in staff member. */
export function registerAdmin(
  app: FastifyInstance,
  deps: {
    operations: readonly OperationTool[];
    callOperation: OperationCaller;
    write: PageWriter;
    app: FastifyInstance;
    internalCalls: InternalCalls;
    now: () => number;
    facts: DeliveryFacts;
    /** The analytics charts, drawn as on /dashboard. */
    dashboard: DashboardCharts;
    /** The school's settings: its time zone and language. */
    school: () => Promise<{ timezone: string; locale: string } | undefined>;
  },
): AdminDeps {
  const operations = indexOperations(deps.operations);
  const assets = {
    style: ownAsset('admin.css', 'text/css; charset=utf-8'),
    script: ownAsset('admin.js', 'text/javascript; charset=utf-8'),
  };
  const editorStyle = ownAsset('admin-editors.css', 'text/css; charset=utf-8');
  serveAssets(app, [assets.style, assets.script, editorStyle]);
  const clocks = new WeakMap<FastifyRequest, Promise<SchoolClock>>();
  const admin: AdminDeps = {
    operations,
    call: adminCalls({ operations, call: deps.callOperation }),
    write: deps.write,
    assets,
    // Read once per request: a page asks for it for its values, its form and its notices.
    clock: (request) => {
      let clock = clocks.get(request);
      if (!clock) {
        clock = deps
          .school()
          .then((school) => ({ zone: school?.timezone ?? 'UTC', locale: school?.locale ?? 'en-GB' }));
        clocks.set(request, clock);
      }
      return clock;
    },
  };
  registerOverviewPage(app, { ...admin, dashboard: deps.dashboard });
  registerStudentsImport(app, admin);
  registerCouponBatches(app, admin);
  registerDeliveryPage(app, { ...admin, facts: deps.facts });
  registerOutboxPage(app, admin);
  registerMarkdownPreview(app);
  registerCurriculumBuilder(app, admin);
  registerCourseDrafts(app, admin);
  registerAuditPage(app, admin);
  registerEventAttendance(app, admin);
  const route = adminRouteCalls({ app: deps.app, internalCalls: deps.internalCalls });
  registerFormExport(app, { route });
  registerLessonMedia(app, { ...admin, route, now: deps.now });
  const editors = { ...admin, editorStyle };
  registerQuizBuilder(app, editors);
  registerDripEditor(app, editors);
  registerFontsEditor(app, editors);
  registerThemeEditor(app, editors);
  registerHomeEditor(app, editors);
  registerMenuEditor(app, editors);
  registerImageUploads(app, { ...editors, route, now: deps.now });
  registerLessonCaptions(app, { ...editors, route });
  registerOperationPages(app, admin);
  registerResourcePages(app, admin);
  return admin;
}
