/** A public API answer: the JSON body of 200 and 503 alike (both carry data_state); any other status throws its error. */
export async function apiJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await res.json();
  if (!res.ok && res.status !== 503) throw new Error(body?.error ?? `HTTP ${res.status}`);
  return body as T;
}
