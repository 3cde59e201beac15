import { ApiError } from './errors';

/**
 * Reads the named query parameters, refusing one given twice (which value was meant is a guess
 * we will not make). Unknown parameters are ignored, so clients can bust caches; empty means absent.
 */
export function readParams<K extends string>(url: URL, names: readonly K[]): Record<K, string | undefined> {
  const out = {} as Record<K, string | undefined>;
  for (const name of names) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) throw new ApiError(400, `Parameter ${name} given more than once`);
    out[name] = values[0] === '' ? undefined : values[0];
  }
  return out;
}
