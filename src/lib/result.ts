/** A parse result that carries either the value or a message fit to show a person. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = <T = never>(error: string): Parsed<T> => ({ ok: false, error });
