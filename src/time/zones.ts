/*
 * A time zone's wall clock, to and from instants, from Intl alone (no zone database of our own). One implementation
 * for the analytics' day buckets and the admin's date boxes, so both agree across a daylight-saving change.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time at `ms` in `timeZone`, read as if it were UTC (so subtracting `ms` gives the offset). */
export function wallClock(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
}

/**
 * The instant at which `timeZone`'s clock shows `wall` (a wall-clock time read as UTC). The offset is taken at the
 * first guess, then again at the answer, so a time just after a clock change lands on the right side of it.
 */
export function instantOfWall(wall: number, timeZone: string): number {
  const guess = wall - (wallClock(wall, timeZone) - wall);
  return wall - (wallClock(guess, timeZone) - guess);
}
