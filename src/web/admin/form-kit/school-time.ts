/**
 * Times as the school reads them: shown and typed in the school's time zone, kept by the API in UTC. The zone is the
 * school's setting (getSchool's `timezone`), so a lesson set to open at 09:00 opens at nine where the school is.
 */
import { instantOfWall, wallClock } from '../../../time/zones.ts';

export type SchoolClock = { zone: string; locale: string };

export const UTC_CLOCK: SchoolClock = { zone: 'UTC', locale: 'en-GB' };

const pad = (n: number) => String(n).padStart(2, '0');

/** An API time as a date-and-time box shows it in the zone ("2026-11-26T14:05"), or '' when it is not one. */
export function toZoneLocal(iso: unknown, zone: string): string {
  if (typeof iso !== 'string') return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(wallClock(at.getTime(), zone));
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/** A date-and-time box's value ("2026-11-26T14:05"), read in the zone, as the API's UTC time. */
export function fromZoneLocal(local: string, zone: string): string | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(local);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const wall = Date.UTC(y as number, (mo as number) - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  return new Date(instantOfWall(wall, zone)).toISOString();
}

const wordFormats = new Map<string, Intl.DateTimeFormat>();

/** The school's way of writing a time, made once per language and zone (a list shows many). */
function wordFormat(clock: SchoolClock): Intl.DateTimeFormat {
  const key = `${clock.locale} ${clock.zone}`;
  let format = wordFormats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(clock.locale, {
        timeZone: clock.zone,
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
    } catch {
      format = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
    }
    wordFormats.set(key, format);
  }
  return format;
}

/** A time in words in the zone: "26 Nov 2026, 14:05" (as the school's language writes it). */
export function whenInWords(iso: string, clock: SchoolClock): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : wordFormat(clock).format(at);
}

/** A date box and a time box for an API time, in the zone ("2026-11-26" and "14:05"). */
export function zoneWall(iso: string, zone: string): { date: string; time: string } {
  const [date = '', time = ''] = toZoneLocal(iso, zone).split('T');
  return { date, time };
}

/** The API time a date box and a time box mean in the zone; undefined when either is not one. */
export const zoneInstant = (date: string, time: string, zone: string) =>
  /^\d{4}-\d\d-\d\d$/.test(date) && /^\d\d:\d\d$/.test(time) ? fromZoneLocal(`${date}T${time}`, zone) : undefined;

/** The zone named for a person beside a time box: "Europe/Berlin time". */
export const zoneWords = (zone: string) => `${zone.replaceAll('_', ' ')} time`;
