/**
 * Times as the school reads them: shown and typed in the school's time zone, kept by the API in UTC. The zone is the
 * school's setting (getSchool's `timezone`), so a lesson set to open at 09:00 opens at nine where the school is.
 */
export type SchoolClock = { zone: string; locale: string };

export const UTC_CLOCK: SchoolClock = { zone: 'UTC', locale: 'en-GB' };

/** Minutes the zone is ahead of UTC at an instant (Europe/Berlin in summer: 120). */
function offsetMinutes(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An API time as a date-and-time box shows it in the zone ("2026-11-26T14:05"), or '' when it is not one. */
export function toZoneLocal(iso: unknown, zone: string): string {
  if (typeof iso !== 'string') return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() + offsetMinutes(at, zone) * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/**
 * A date-and-time box's value, read in the zone, as the API's UTC time. The offset is taken at the time itself, then
 * again at the result, so a time just after a clock change lands on the right side of it.
 */
export function fromZoneLocal(local: string, zone: string): string | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(local);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const wall = Date.UTC(y as number, (mo as number) - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  let at = wall - offsetMinutes(new Date(wall), zone) * 60_000;
  at = wall - offsetMinutes(new Date(at), zone) * 60_000;
  return new Date(at).toISOString();
}

/** A time in words in the zone: "26 Nov 2026, 14:05" (as the school's language writes it). */
export function whenInWords(iso: string, clock: SchoolClock): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(clock.locale, {
      timeZone: clock.zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(at);
  }
}

/** The zone named for a person beside a time box: "Europe/Berlin time". */
export const zoneWords = (zone: string) => `${zone.replaceAll('_', ' ')} time`;
