import type { Lecturer } from '../../areas/lecturers/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { type Pictures, picture } from './picture.ts';

/**
 * A lecturer's portrait, square, shown small (the page's CSS sizes the class, `avatar` by default: at most 6rem, so
 * the 160 px variant serves phones' dense screens); nothing for a lecturer without one.
 */
export function portrait(lecturer: Pick<Lecturer, 'avatar_url'>, pictures: Pictures, className = 'avatar'): SafeHtml {
  if (!lecturer.avatar_url) return html``;
  const facts = pictures.facts(lecturer.avatar_url);
  return picture({ src: lecturer.avatar_url, alt: '', sizes: '6rem', facts, ratio: [1, 1], className });
}
