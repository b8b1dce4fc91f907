import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// Pages load as lazy chunks and the machine may be busy: give async queries room,
// without any test depending on how fast it runs.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no layout: the router's scroll restoration has nothing to scroll.
window.scrollTo = () => {};

/*
 * An update React reports as "not wrapped in act(...)" came after the test stopped
 * looking: the test asserted on a screen still changing. Each fails the test it came in
 * (or, after the last test's end, the file): await the state the screen settles in
 * (`findBy*`, `waitFor`), or wrap what the test does by hand (`act(() => x.focus())`).
 */
const actWarnings: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (text.includes('not wrapped in act(')) actWarnings.push(text.split('\n')[0]!);
  consoleError(...args);
};
const failOnActWarnings = () => {
  const warnings = actWarnings.splice(0);
  if (warnings.length > 0) {
    throw new Error(`React updated outside act():\n${[...new Set(warnings)].join('\n')}`);
  }
};
afterEach(failOnActWarnings);
afterAll(failOnActWarnings);
