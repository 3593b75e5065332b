import type { Migration, MigrationProvider } from 'kysely/migration';
import { foundation } from './001_foundation.ts';
import { oauth } from './002_oauth.ts';
import { catalog } from './003_catalog.ts';
import { lecturerUserUnique } from './004_lecturer_user_unique.ts';
import { textSearch } from './005_text_search.ts';
import { jobs } from './006_jobs.ts';
import { mail } from './007_mail.ts';
import { students } from './008_students.ts';
import { storage } from './009_storage.ts';
import { certificates } from './010_certificates.ts';
import { quizzes } from './011_quizzes.ts';
import { commerce } from './012_commerce.ts';
import { memberships } from './013_memberships.ts';
import { couponAndProductIndexes } from './014_coupon_and_product_indexes.ts';
import { analytics } from './015_analytics.ts';
import { events } from './016_events.ts';
import { forms } from './017_forms.ts';
import { ordersByTime } from './018_orders_by_time.ts';
import { auditLog } from './019_audit_log.ts';
import { security } from './020_security.ts';
import { moneyAndAccess } from './021_money_and_access.ts';
import { footerLinks } from './022_footer_links.ts';
import { productImages } from './023_product_images.ts';
import { playbackPositions } from './026_playback_positions.ts';
import { coursePageFields } from './027_course_page_fields.ts';
import { homeAndTheme } from './028_home_and_theme.ts';
import { courseSearch } from './029_course_search.ts';
import { imageVariants } from './030_image_variants.ts';
import { auditPseudonyms } from './031_audit_pseudonyms.ts';

/** Migrations live in code, in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '001_foundation': foundation,
  '002_oauth': oauth,
  '003_catalog': catalog,
  '004_lecturer_user_unique': lecturerUserUnique,
  '005_text_search': textSearch,
  '006_jobs': jobs,
  '007_mail': mail,
  '008_students': students,
  '009_storage': storage,
  '010_certificates': certificates,
  '011_quizzes': quizzes,
  '012_commerce': commerce,
  '013_memberships': memberships,
  '014_coupon_and_product_indexes': couponAndProductIndexes,
  '015_analytics': analytics,
  '016_events': events,
  '017_forms': forms,
  '018_orders_by_time': ordersByTime,
  '019_audit_log': auditLog,
  '020_security': security,
  '021_money_and_access': moneyAndAccess,
  '022_footer_links': footerLinks,
  '023_product_images': productImages,
  '026_playback_positions': playbackPositions,
  '027_course_page_fields': coursePageFields,
  '028_home_and_theme': homeAndTheme,
  '029_course_search': courseSearch,
  '030_image_variants': imageVariants,
  '031_audit_pseudonyms': auditPseudonyms,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
