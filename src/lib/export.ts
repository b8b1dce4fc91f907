/**
 * CSV and JSON of the rows on screen. Ids, prices and hashes stay strings, so nothing
 * passes through a float: a 256-bit token id comes out exactly as it went in.
 */
export type ExportRow = { [column: string]: ExportValue };
/** A cell; a list of rows (the records a row was made of) goes into the JSON export only. */
type ExportValue = string | number | undefined | ExportRow[];

export function toCsv(rows: readonly ExportRow[], columns: readonly string[]): string {
  return `${csvHeader(columns)}${csvRows(rows, columns)}`;
}

export const csvHeader = (columns: readonly string[]) => `${columns.map(csvField).join(',')}\r\n`;

/** Rows of a CSV without its header line, for a file written a batch at a time. */
export function csvRows(rows: readonly ExportRow[], columns: readonly string[]): string {
  let text = '';
  for (const row of rows) text += `${columns.map((column) => csvField(row[column])).join(',')}\r\n`;
  return text;
}

// Spreadsheet programs run a cell that starts with =, +, -, @, a tab or a carriage return
// as a formula, and some read the fullwidth forms (U+FF1D, U+FF0B, U+FF0D, U+FF20) as the
// same signs: each is kept as text by a leading apostrophe. A plain negative number (a
// loss) is no formula, and must stay a number a spreadsheet can sum.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;

function csvField(value: ExportValue): string {
  if (value === undefined || Array.isArray(value)) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toJson(rows: readonly ExportRow[], meta: Record<string, unknown>): string {
  return `${JSON.stringify({ ...meta, count: rows.length, rows }, null, 2)}\n`;
}
