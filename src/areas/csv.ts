/**
 * Text a spreadsheet would read as a formula when the file is opened (CSV injection): it starts with = + - @ or a
 * tab or carriage return. Such a cell is written with a leading apostrophe, which spreadsheets show as text (OWASP).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted, with its quotes doubled, when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula is defused; numbers are written as they are (a negative number is no formula).
 */
const csvField = (value: string | number | boolean | null) => {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One line of a CSV file, CRLF-terminated. */
export const csvLine = (fields: (string | number | boolean | null)[]) => `${fields.map(csvField).join(',')}\r\n`;
