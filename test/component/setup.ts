import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// Pages load as lazy chunks and the machine may be busy: give async queries room,
// without any test depending on how fast it runs.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: the router's scroll restoration has nothing to scroll.
window.scrollTo = () => {};
