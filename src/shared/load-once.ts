/**
 * A module (or anything else) loaded on its first use and kept: `loadOnce(() => import('sharp'))`.
 * A bare `await import(…)` on a per-file path resolves the specifier again on every call (under a
 * loader hook, such as tsx's, a message to its thread and back each time: 0.28 ms per uploaded file
 * in a profile of 10,000), so every lazy import goes through here.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
