import type { Course } from '../../areas/courses/schema.ts';
import type { SafeHtml } from '../../text/html.ts';
import { generatedCover } from './generated-cover.ts';
import { type Pictures, picture } from './picture.ts';

/** How wide a card's cover is shown: a quarter of the widest page, a third, a half, or the whole phone. */
export const CARD_SIZES = '(min-width: 72rem) 17rem, (min-width: 50rem) 33vw, (min-width: 34rem) 50vw, 100vw';

/**
 * A course's cover, 16:9: its picture (responsive, with its placeholder, once the page has loaded its facts), or the
 * cover generated from its title in the school's colours when it has none. `className` sizes the box.
 */
export function courseCover(
  course: Pick<Course, 'id' | 'title' | 'cover_url'>,
  pictures: Pictures,
  options: { sizes: string; className?: string; priority?: boolean },
): SafeHtml {
  if (!course.cover_url) return generatedCover(course, options.className);
  return picture({
    src: course.cover_url,
    alt: '',
    sizes: options.sizes,
    facts: pictures.facts(course.cover_url),
    ratio: [16, 9],
    ...(options.className ? { className: options.className } : {}),
    ...(options.priority ? { priority: true } : {}),
  });
}
