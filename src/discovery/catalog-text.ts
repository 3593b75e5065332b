/**
 * Integer minor units shown in the currency's own number of decimals (JPY has none, EUR two), in the school's
 * locale: `{amount: 4900, currency: "EUR"}` is "€49.00" in en, "49,00 €" in de.
 */
export function formatMoney(money: { amount: number; currency: string }, locale = 'en'): string {
  const { format, digits } = formatterFor(locale, money.currency);
  return format.format(money.amount / 10 ** digits);
}

/** Building an Intl.NumberFormat costs far more than using one; a catalog has a handful of locale-currency pairs. */
const formatters = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function formatterFor(locale: string, currency: string) {
  const key = `${locale} ${currency}`;
  let entry = formatters.get(key);
  if (!entry) {
    let format: Intl.NumberFormat;
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat('en', { style: 'currency', currency });
    }
    entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    if (formatters.size > 100) formatters.clear();
    formatters.set(key, entry);
  }
  return entry;
}

/** A duration for people: "45 min", "3 h 20 min". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${Math.max(minutes, seconds > 0 ? 1 : 0)} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** What a lesson is, for outlines: "video, 10 min, free preview". */
export function lessonFacts(lesson: { type: string; duration_s: number | null; is_preview: boolean }): string {
  return [
    lesson.type,
    lesson.duration_s ? formatDuration(lesson.duration_s) : '',
    lesson.is_preview ? 'free preview' : '',
  ]
    .filter(Boolean)
    .join(', ');
}
