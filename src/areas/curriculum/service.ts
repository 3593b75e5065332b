import type { Executor } from '../../db/tables.ts';
import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { StorageService } from '../storage/service.ts';
import { curriculumAccess } from './access.ts';
import { lessonRules } from './lessons.ts';
import { curriculumOrdering } from './ordering.ts';
import { playbackRules } from './playback.ts';
import type { CourseRowsPort, EnrollmentPort } from './ports.ts';
import { gradeQuiz } from './quiz.ts';
import { sectionRules } from './sections.ts';
import type { CurriculumStore } from './store.ts';

/**
 * Sections and lessons of a course. Positions are dense (0..n-1) per course and per section; every change of them
 * runs in one transaction holding the course's lock. Non-staff callers see published sections and lessons of courses
 * visible to them (courses.visibleTo), anything else is 404; a lesson's body and asset are open to staff, for
 * previews, and to enrolled students once the section's drip has opened — otherwise the lesson comes `locked`.
 */
export function curriculumService(
  deps: AreaDeps & {
    store: CurriculumStore;
    courses: CoursesService;
    courseRows: CourseRowsPort;
    enrollments: EnrollmentPort;
    storage: StorageService;
    /** The comments area: a deleted lesson's comments go with it, in its transaction. */
    comments: { removeFor(trx: Executor, targetType: 'lesson', targetId: string): Promise<void> };
  },
) {
  const access = curriculumAccess(deps);
  const ordering = curriculumOrdering(deps);
  return {
    ...sectionRules({ ...deps, access, ordering }),
    ...lessonRules({ ...deps, access, ordering }),
    ...playbackRules({ ...deps, access }),
    /** How a submission scores against a quiz: what the students area records as an attempt. */
    gradeQuiz,
    /**
     * The lessons a student's progress counts, read in the caller's transaction: the published lessons of the
     * published sections, in course order.
     */
    countedLessons: (ex: Executor, courseId: string) => deps.store.countedLessons(ex, courseId),
  };
}

export type CurriculumService = ReturnType<typeof curriculumService>;
