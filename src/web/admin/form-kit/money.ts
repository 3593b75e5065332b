/** Money as a person reads and types it: in major units with the currency's symbol; the API keeps minor units. */

const formats = new Map<string, Intl.NumberFormat>();

/** A currency's format in a language, made once (a list of orders shows many amounts); throws for an unknown code. */
function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formats.set(key, format);
  }
  return format;
}

/** Digits after the decimal point of a currency's minor unit (2 for EUR, 0 for JPY). */
export const minorDigits = (currency: string): number => {
  try {
    return currencyFormat('en', currency).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** 4900 EUR → "49.00": what the admin shows in a price box. */
export const majorUnits = (amount: number, currency: string) => {
  const digits = minorDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
};

/** 4900 EUR → "€49.00": money as a person reads it, in the school's language. */
export function moneyWords(amount: number, currency: string, locale = 'en-GB'): string {
  try {
    return currencyFormat(locale, currency).format(amount / 10 ** minorDigits(currency));
  } catch {
    return `${majorUnits(amount, currency)} ${currency}`;
  }
}

/** The symbol a currency is written with ("€" for EUR), to stand beside an amount box. */
export function currencySymbol(currency: string, locale = 'en-GB'): string {
  try {
    return (
      currencyFormat(locale, currency)
        .formatToParts(0)
        .find((p) => p.type === 'currency')?.value ?? currency
    );
  } catch {
    return currency;
  }
}

/** "10" or "10.5" typed for EUR → 1000 or 1050; undefined when it is not an amount of that currency. */
export function minorUnits(typed: string, currency: string): number | undefined {
  const digits = minorDigits(currency);
  const text = typed
    .trim()
    .replace(/^[^\d-]+/, '')
    .replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return undefined;
  const [, fraction = ''] = text.split('.');
  if (fraction.length > digits) return undefined;
  return Math.round(Number(text) * 10 ** digits);
}
