import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One line of the printed table: a figure, and when it has one, its budget and verdict. */
export interface Row {
  bench: string;
  name: string;
  value: string;
  budget?: string;
  /** undefined: a figure without a budget (shown as "info"). */
  pass?: boolean;
}

/**
 * Collects every figure of one run: the rows of the printed table, and the raw data of
 * each benchmark for `bench/results.json`.
 */
export class Report {
  readonly rows: Row[] = [];
  readonly data: Record<string, unknown> = {};
  readonly notes: string[] = [];

  info(bench: string, name: string, value: string): void {
    this.rows.push({ bench, name, value });
  }

  budget(bench: string, name: string, value: string, budget: string, pass: boolean): void {
    this.rows.push({ bench, name, value, budget, pass });
  }

  /** A benchmark that could not run: shown as a failed row so it cannot pass unnoticed. */
  failed(bench: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.rows.push({ bench, name: 'did not complete', value: message.slice(0, 160), pass: false });
    this.data[`${bench}.error`] = error instanceof Error ? (error.stack ?? message) : message;
  }

  set(key: string, value: unknown): void {
    this.data[key] = value;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  table(): string {
    const lines = this.rows.map((row) => [
      row.pass === undefined ? 'info' : row.pass ? 'PASS' : 'FAIL',
      row.bench,
      row.name,
      row.value,
      row.budget ?? '',
    ]);
    const all = [['', 'bench', 'figure', 'value', 'budget'], ...lines];
    const widths = [0, 1, 2, 3].map((column) =>
      Math.max(...all.map((line) => line[column]!.length)),
    );
    const format = (line: string[]) =>
      line
        .map((cell, column) => (column < 4 ? cell.padEnd(widths[column]!) : cell))
        .join('  ')
        .trimEnd();
    return [
      format(all[0]!),
      '-'.repeat(widths.reduce((sum, width) => sum + width + 2, 8)),
      ...lines.map(format),
    ].join('\n');
  }

  summary(): { passed: number; failed: number; info: number } {
    return {
      passed: this.rows.filter((row) => row.pass === true).length,
      failed: this.rows.filter((row) => row.pass === false).length,
      info: this.rows.filter((row) => row.pass === undefined).length,
    };
  }

  write(path: string, meta: Record<string, unknown>): void {
    mkdirSync(dirname(path), { recursive: true });
    const body = {
      ...meta,
      summary: this.summary(),
      table: this.rows.map((row) => ({
        ...row,
        status: row.pass === undefined ? 'info' : row.pass ? 'PASS' : 'FAIL',
      })),
      notes: this.notes,
      figures: this.data,
    };
    writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
  }
}
