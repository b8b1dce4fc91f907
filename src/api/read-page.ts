import { ApiError } from './api-error';
import { InvalidPageError, parsePage } from './normalise';
import type { Page } from '../lib/page';

/** Turns an unreadable envelope into the data layer's one error type. */
export function readPage<T>(body: unknown, normalise: (item: unknown) => T | null): Page<T> {
  try {
    return parsePage(body, normalise);
  } catch (error) {
    if (error instanceof InvalidPageError) throw new ApiError('invalid_response', error.message);
    throw error;
  }
}
