/** `iso` moved by `months` calendar months (UTC), the day of the month clamped to the target month's last day. */
export function addMonths(iso: string, months: number): string {
  const from = new Date(iso);
  const target = new Date(
    Date.UTC(
      from.getUTCFullYear(),
      from.getUTCMonth() + months,
      1,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target.toISOString();
}

const MONTHS = { month: 1, year: 12 } as const;

/** The end of one period of `interval` starting at `start`. */
export const periodEnd = (start: string, interval: keyof typeof MONTHS) => addMonths(start, MONTHS[interval]);

/**
 * The end of the period that follows the one ending at `end`: the first whole number of intervals after `anchor`
 * that is later than `end`. Counting from the anchor, not from `end`, keeps a subscription begun on the 31st renewing
 * on the 31st (or the month's last day), where stepping from each period's end would drift to the 28th for good.
 */
export function nextPeriodEnd(anchor: string, end: string, interval: keyof typeof MONTHS): string {
  const step = MONTHS[interval];
  const a = new Date(anchor);
  const e = new Date(end);
  const monthsBetween = (e.getUTCFullYear() - a.getUTCFullYear()) * 12 + e.getUTCMonth() - a.getUTCMonth();
  let k = Math.max(1, Math.floor(monthsBetween / step) - 1);
  while (addMonths(anchor, k * step) <= end) k += 1;
  return addMonths(anchor, k * step);
}
