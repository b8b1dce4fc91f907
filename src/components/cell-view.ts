import { createContext, useContext } from 'react';

/**
 * What a table's cells read of their page (a currency, how times are shown): given by a
 * context, so the columns stay the same objects while the view changes. Returns the
 * context's provider and the hook the cells call.
 */
export function cellView<V>(table: string) {
  const Context = createContext<V | null>(null);
  function useCellView(): V {
    const view = useContext(Context);
    if (!view) throw new Error(`${table} cells are rendered inside their view's provider.`);
    return view;
  }
  return { Provider: Context.Provider, useCellView };
}
