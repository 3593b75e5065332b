import type { Event } from './schema.ts';

/** The long name of a time zone at an instant ("Central European Standard Time"), in the page's language. */
export function zoneName(at: Date, timeZone: string, locale: string): string {
  const part = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/**
 * When an event takes place, read in one time zone with the zone named, as people say it and as the IANA database
 * does: "Tuesday, 1 December 2026, 18:00–19:30 Central European Standard Time (Europe/Warsaw)". An event that ends on
 * a later day names both days; an instant (start = end) is one time. Pages, e-mail and /llms.txt all say it this way;
 * the event page says it in the visitor's own zone with src/web/client/local-time.js, which makes the same Intl calls.
 */
export function eventWhen(event: Pick<Event, 'starts_at' | 'ends_at'>, timeZone: string, locale: string): string {
  const start = new Date(event.starts_at);
  const end = new Date(event.ends_at);
  const dayOf = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  const timeOf = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' });
  const sameDay = dayOf.format(start) === dayOf.format(end);
  const span =
    start.getTime() === end.getTime()
      ? `${dayOf.format(start)}, ${timeOf.format(start)}`
      : sameDay
        ? `${dayOf.format(start)}, ${timeOf.format(start)}–${timeOf.format(end)}`
        : `${dayOf.format(start)}, ${timeOf.format(start)} – ${dayOf.format(end)}, ${timeOf.format(end)}`;
  return `${span} ${zoneName(start, timeZone, locale)} (${timeZone})`;
}
