import type { ComponentType } from 'react';
import { useLocation, useParams } from 'react-router';
import type { SearchReading } from '../lib/param-reading';
import type { Parsed } from '../lib/result';
import { BadParam, CanonicalRedirect } from './bad-param';
import { useNow } from './use-now';

/** A path parameter as the page reads it: its canonical text, or why it cannot be read. */
export type ParamReader = (raw: string) => Parsed<string>;

export interface ParamRouteSpec<Name extends string> {
  /** Each path parameter, in order: the title when it cannot be read, and its reader. */
  params: Record<Name, [title: string, read: ParamReader]>;
  /** The URL's search read: the canonical one and why values were left out (some depend on the time). */
  search: (params: URLSearchParams, nowMs: number) => SearchReading;
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
    const reading = search(new URLSearchParams(location.search), nowMs);
    if (!canonical || reading.search !== location.search) {
      return <CanonicalRedirect to={href(values, reading.search)} reading={reading} />;
    }
    return <Page key={Object.values<string>(values).join('/')} {...values} />;
  };
}
