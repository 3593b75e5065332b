import { eraseSignInsOf } from '../identity/sign-in-erasure.ts';
import type { PersonalData, PersonalErasure } from './account/ports.ts';
import { anonymiseAuditActor } from './audit/personal-data.ts';
import { certificatesOfPerson } from './certificates/personal-data.ts';
import { eraseCommentsOf } from './comments/personal-data.ts';
import { coursesStore } from './courses/store.ts';
import { playbackOfPerson } from './curriculum/personal-data.ts';
import { endCalendarFeedOf } from './events/personal-data.ts';
import { submissionsOfPerson } from './forms/personal-data.ts';
import { ordersOfPerson } from './orders/personal-data.ts';
import { learningRecord } from './students/personal-data.ts';
import { hasRenewingSubscription } from './subscriptions/personal-data.ts';

/** A person's data as each owning area holds it: what the account area exports and erases (one place to add to). */
export function personalDataPorts(deps: {
  /** The events area's, which tells the next in line when a seat frees up. */
  releaseEventSeats: PersonalErasure['releaseEventSeats'];
}): { personalData: PersonalData; erasure: PersonalErasure } {
  const courses = coursesStore();
  return {
    personalData: {
      enrollments: learningRecord.enrollments,
      lessonCompletions: learningRecord.lessonCompletions,
      playbackPositions: playbackOfPerson,
      courseTitles: async (ex, ids) => new Map((await courses.findByIds(ex, ids)).map((c) => [c.id, c.title])),
      orders: ordersOfPerson,
      certificates: certificatesOfPerson.list,
      formSubmissions: submissionsOfPerson.list,
    },
    erasure: {
      hasRenewingSubscription,
      eraseComments: eraseCommentsOf,
      anonymiseCertificates: certificatesOfPerson.anonymise,
      eraseFormSubmissions: submissionsOfPerson.erase,
      endCalendarFeed: endCalendarFeedOf,
      releaseEventSeats: deps.releaseEventSeats,
      anonymiseAuditActor,
      eraseSignIns: eraseSignInsOf,
    },
  };
}
