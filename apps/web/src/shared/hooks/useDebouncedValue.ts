import { SEARCH_DEBOUNCE_MS } from '@soc/contracts';
import { useEffect, useState } from 'react';

/**
 * `value`, once it has stopped changing for `delayMs` (default: the search debounce of
 * product §A9, 300 ms). Suggestion searches key their queries by it, so typing sends one
 * request per pause rather than one per keystroke.
 */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
