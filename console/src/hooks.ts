/** Hooks the views share: polling the operator API, and batching live pushes into renders. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api.ts';

export interface Polled<T> {
  data: T | undefined;
  error: string;
  refresh: () => void;
}

/**
 * `load` now and every `intervalMs` while the view is shown (paused while the tab is hidden);
 * one call at a time, so a busy server is never asked twice for the same thing.
 */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, deps: unknown[]): Polled<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState('');
  const running = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  const refresh = useCallback(() => {
    if (running.current) return;
    running.current = true;
    loadRef.current().then(
      (value) => {
        running.current = false;
        setData(value);
        setError('');
      },
      (caught: unknown) => {
        running.current = false;
        setError(errorText(caught));
      },
    );
  }, []);
  useEffect(() => {
    setData(undefined);
    refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, deps);
  return { data, error, refresh };
}

/**
 * A value changed by pushes many times a second, rendered at most every `everyMs`: `update`
 * mutates the held value, the view re-renders on the next tick.
 */
export function useBatched<T>(initial: () => T, everyMs = 250): [T, (mutate: (value: T) => void) => void] {
  const held = useRef<T | null>(null);
  held.current ??= initial();
  const [, setVersion] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const update = useCallback(
    (mutate: (value: T) => void) => {
      mutate(held.current as T);
      timer.current ??= setTimeout(() => {
        timer.current = null;
        setVersion((version) => version + 1);
      }, everyMs);
    },
    [everyMs],
  );
  return [held.current, update];
}
