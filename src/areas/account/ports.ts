import type { Executor } from '../../db/tables.ts';
import type {
  ExportedCertificate,
  ExportedEnrollment,
  ExportedFormSubmission,
  ExportedLessonCompletion,
  ExportedOrder,
  ExportedPlaybackPosition,
} from './export-schema.ts';

/**
 * What the account area asks of the areas that hold a person's data, each answered by the owner over its own tables
 * inside the caller's transaction, so an export is one consistent reading and a deletion happens whole or not at all.
 */
export type PersonalData = {
  enrollments: (ex: Executor, userId: string) => Promise<Omit<ExportedEnrollment, 'course_title'>[]>;
  lessonCompletions: (ex: Executor, userId: string) => Promise<ExportedLessonCompletion[]>;
  playbackPositions: (ex: Executor, userId: string) => Promise<ExportedPlaybackPosition[]>;
  courseTitles: (ex: Executor, courseIds: string[]) => Promise<Map<string, string>>;
  orders: (ex: Executor, userId: string) => Promise<ExportedOrder[]>;
  certificates: (ex: Executor, userId: string) => Promise<ExportedCertificate[]>;
  formSubmissions: (ex: Executor, userId: string, email: string) => Promise<ExportedFormSubmission[]>;
};

/** What deleting an account asks of the other areas: refusals first, then erasure, all in one transaction. */
export type PersonalErasure = {
  /** Whether a membership still renews or stays billable: the person cancels it before deleting the account. */
  hasRenewingSubscription: (ex: Executor, userId: string) => Promise<boolean>;
  /** Their comments: body erased and marked deleted, so replies keep their place in the thread. */
  eraseComments: (ex: Executor, userId: string, at: string) => Promise<void>;
  /** Their certificates: revoked, and the name printed on them replaced. */
  anonymiseCertificates: (ex: Executor, userId: string, name: string, at: string) => Promise<void>;
  /** The forms they sent (signed in, or naming their address): deleted. */
  eraseFormSubmissions: (ex: Executor, userId: string, email: string) => Promise<void>;
  /** Their private calendar feed: its address stops working. */
  endCalendarFeed: (ex: Executor, userId: string) => Promise<void>;
  /** Their seats and places in line for events not yet started: given up, a freed seat going to the next in line. */
  releaseEventSeats: (ex: Executor, userId: string) => Promise<void>;
  /** Their entries in the audit trail: the address copied there replaced by `email`. */
  anonymiseAuditActor: (ex: Executor, userId: string, email: string) => Promise<void>;
  /** Their sign-in attempts, and those made at any of their addresses: deleted. */
  eraseSignIns: (ex: Executor, userId: string, addresses: string[]) => Promise<void>;
};
