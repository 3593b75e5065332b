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
