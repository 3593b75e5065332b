// Shows an event's time in the visitor's own time zone, with the zone named. The page is rendered in the event's
// zone (what a visitor without JavaScript reads); when the browser's zone differs, the <time> text becomes the
// visitor's and the event's own wording follows on a line of its own. The wording is the server's (views/events.ts
// eventWhen): the same Intl calls, so both read alike. Served by the school: the CSP allows no inline script.
(() => {
  const visitorZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!visitorZone) return;

  const zoneName = (at, timeZone, locale) =>
    new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value || timeZone;

  const when = (start, end, timeZone, locale) => {
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
  };

  for (const element of document.querySelectorAll('time.event-time')) {
    const eventZone = element.dataset.zone;
    const start = new Date(element.getAttribute('datetime'));
    const end = new Date(element.dataset.end || element.getAttribute('datetime'));
    if (!eventZone || eventZone === visitorZone || Number.isNaN(start.getTime())) continue;
    const locale = element.dataset.locale || document.documentElement.lang || undefined;
    const original = element.textContent;
    element.textContent = when(start, end, visitorZone, locale);
    element.dataset.shownIn = visitorZone;
    // An instant inside a sentence (when the join link appears) reads well without the second zone.
    if (start.getTime() === end.getTime()) continue;
    const held = document.createElement('span');
    held.className = 'meta event-zone';
    held.textContent = ` (in the event's time zone: ${original})`;
    element.after(held);
  }
})();
