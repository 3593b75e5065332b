/*
 * A day and time as the school's clock shows them, to and from the UTC instant the API keeps. The offset is read from
 * Intl for the instant itself, so a date across a daylight-saving change lands on the wall-clock time typed.
 */

const wallParts = (instant: number, zone: string) => {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` };
};

const asUtc = (date: string, time: string) => Date.parse(`${date}T${time}:00.000Z`);

/** The zone's clock at an instant, as a date box and a time box show it. */
export function zoneWall(iso: string, zone: string): { date: string; time: string } {
  return wallParts(Date.parse(iso), zone);
}

/** The instant the zone's clock shows `date` at `time` (RFC 3339, UTC); undefined when either is not one. */
export function zoneInstant(date: string, time: string, zone: string): string | undefined {
  if (!/^\d{4}-\d\d-\d\d$/.test(date) || !/^\d\d:\d\d$/.test(time)) return undefined;
  const wall = asUtc(date, time);
  if (Number.isNaN(wall)) return undefined;
  let instant = wall;
  // Twice: the offset at the first guess may differ from the offset at the answer (a daylight-saving change between).
  for (let i = 0; i < 2; i++) {
    const shown = wallParts(instant, zone);
    instant += wall - asUtc(shown.date, shown.time);
  }
  return new Date(instant).toISOString();
}

/** The school's time zone by its API, UTC when it says none. */
export const schoolZone = (school: { status: number; body: Record<string, unknown> }) =>
  school.status === 200 && typeof school.body.timezone === 'string' && school.body.timezone
    ? school.body.timezone
    : 'UTC';
