import { html, type SafeHtml } from '../../text/html.ts';

/**
 * A small sample of the public site — header, menu, text, a button and a course card — drawn with the school's
 * theme variables. admin.js sets the variables on it as the colour and font boxes change, so the owner sees the new
 * look before saving; without the script it shows the saved look.
 */
export function themePreview(): SafeHtml {
  return html`<section class="theme-preview" aria-labelledby="preview-title" data-theme-preview>
<h2 id="preview-title">Preview</h2>
<div class="sample"><p class="sample-brand">Your school</p>
<p class="sample-nav"><a href="#preview-title">Courses</a> <a href="#preview-title">Events</a> <a href="#preview-title">Posts</a></p>
<h3>A course title</h3><p>Body text reads like this, with <a href="#preview-title">a link</a> in it.</p>
<p><span class="button">Enroll now</span> <span class="sample-accent">New</span></p></div></section>`;
}
