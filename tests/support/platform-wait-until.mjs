// Loaded into a test app with `--import`: stands in for Vercel's runtime, which gives Next a request
// context whose `waitUntil` keeps the function alive for work registered after the answer (Next reads
// it from this global; `@vercel/functions` from the second). Each registration and its settling is
// logged, so a test can tell what the app handed over and when it finished.
let count = 0;
const context = {
  waitUntil(promise) {
    const id = ++count;
    console.log(`[waitUntil] registered ${id}`);
    Promise.resolve(promise).then(
      () => console.log(`[waitUntil] settled ${id}`),
      () => console.log(`[waitUntil] settled ${id} (rejected)`),
    );
  },
};
globalThis[Symbol.for('@next/request-context')] = { get: () => context };
globalThis[Symbol.for('@vercel/request-context')] = { get: () => context };
