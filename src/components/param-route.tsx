import type { ComponentType } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import type { Parsed } from '../lib/result';
import { BadParam, leftOutState } from './bad-param';
import { useNow } from './use-now';

/** A path parameter as the page reads it: its canonical text, or why it cannot be read. */
export type ParamReader = (raw: string) => Parsed<string>;

export interface ParamRouteSpec<Name extends string> {
  /** Each path parameter, in order: the title when it cannot be read, and its reader. */
  params: Record<Name, [title: string, read: ParamReader]>;
  /** The canonical search of the URL's search (some values depend on the time). */
  search: (params: URLSearchParams, nowMs: number) => string;
  /** Why values of the URL's search are left out of the canonical one, in words. */
  problems?: (params: URLSearchParams, nowMs: number) => (string | null)[];
  /** The canonical URL of the parameters read, with the canonical search. */
  href: (values: Record<Name, string>, search: string) => string;
  Page: ComponentType<Record<Name, string>>;
}

/**
 * A page's route component: it reads the path parameters (the first that cannot be read
 * shows why, quoting it), replaces a URL whose parameters or search are not in canonical
 * form by the canonical one (saying why a value was left out, see `LeftOut`), then shows the page keyed on the parameters: another
 * address is another page, with none of this one's state.
 */
export function paramRoute<Name extends string>({
  params,
  search,
  problems,
  href,
  Page,
}: ParamRouteSpec<Name>) {
  return function ParamRoute() {
    const raw = useParams();
    const location = useLocation();
    const nowMs = useNow();
    const values = {} as Record<Name, string>;
    let canonical = true;
    for (const name of Object.keys(params) as Name[]) {
      const [title, read] = params[name];
      const text = raw[name] ?? '';
      const parsed = read(text);
      if (!parsed.ok) {
        return <BadParam title={title} message={`“${text.slice(0, 100)}”: ${parsed.error}`} />;
      }
      values[name] = parsed.value;
      canonical &&= parsed.value === text;
    }
    const given = new URLSearchParams(location.search);
    const canonicalSearch = search(given, nowMs);
    if (!canonical || canonicalSearch !== location.search) {
      const left = (problems?.(given, nowMs) ?? []).filter((text) => text !== null);
      return <Navigate replace to={href(values, canonicalSearch)} state={leftOutState(left)} />;
    }
    return <Page key={Object.values<string>(values).join('/')} {...values} />;
  };
}
