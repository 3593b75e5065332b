/**
 * The one way the school's pages write a date: in the school's language and time zone, the month in words ("20
 * November 2026" in en-GB, "November 20, 2026" in en, "20. November 2026" in de), with the time when it matters. A
 * day is the day in the school's zone, so a post published at 23:30 in Warsaw is dated that day, not the next.
 */
export type SchoolDates = {
  /** The day of an instant: "20 November 2026". */
  day(timestamp: string): string;
  /** The day and the time of an instant: "20 November 2026 at 14:05". */
  dayAndTime(timestamp: string): string;
};

/** Building an Intl.DateTimeFormat costs far more than using one; a school has one locale and one zone. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: string, timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${withTime}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', ...(withTime ? { timeStyle: 'short' } : {}) };
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      // A locale or zone the runtime does not know (an old setting) reads in English and UTC rather than failing.
      format = new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' });
    }
    if (formats.size > 100) formats.clear();
    formats.set(key, format);
  }
  return format;
}

export function schoolDates(locale = 'en', timeZone = 'UTC'): SchoolDates {
  return {
    day: (timestamp) => formatOf(locale, timeZone, false).format(new Date(timestamp)),
    dayAndTime: (timestamp) => formatOf(locale, timeZone, true).format(new Date(timestamp)),
  };
}
