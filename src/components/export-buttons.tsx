import { toCsv, toJson, type ExportRow } from '../lib/export';
import button from './button.module.css';
import styles from './export-buttons.module.css';

interface ExportButtonsProps {
  /** Builds the rows when a button is pressed, not on every render. */
  rows: () => readonly ExportRow[];
  columns: readonly string[];
  fileName: string;
  meta: Record<string, unknown>;
}

/** Downloads the current view as CSV or JSON, made in the browser. */
export function ExportButtons({ rows, columns, fileName, meta }: ExportButtonsProps) {
  const download = (format: 'csv' | 'json') => {
    const data = rows();
    const text = format === 'csv' ? toCsv(data, columns) : toJson(data, meta);
    const blob = new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${fileName}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className={styles.buttons} role="group" aria-label="Export the rows shown">
      <button type="button" className={button.secondary} onClick={() => download('csv')}>
        Export CSV
      </button>
      <button type="button" className={button.secondary} onClick={() => download('json')}>
        Export JSON
      </button>
    </div>
  );
}
