import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A gc we can call: the global one under --expose-gc, else one switched on at runtime. */
export function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
