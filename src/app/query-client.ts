import { QueryClient } from '@tanstack/react-query';
import { retryDelayMs, shouldRetry } from '../api/retry-policy';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: retryDelayMs,
        // Event pages are immutable; refetching them on focus would only spend quota.
        refetchOnWindowFocus: false,
      },
    },
  });
}
