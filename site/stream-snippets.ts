// The price stream's code samples on /docs/api: the page shows them and the tests run them as written
// (curl in a shell, the EventSource snippet in Chromium), so they cannot drift from the service.

/** Follows the stream in a terminal: `-N` turns curl's buffering off, so each event prints as it comes. */
export const streamCurl = (origin: string) => `curl -N '${origin}/api/v1/stream?currency=EUR&unit=gram'`;

/** Follows it in a browser, any origin (CORS is open); EventSource reconnects by itself. */
export const streamEventSource = (origin: string) => `const prices = new EventSource('${origin}/api/v1/stream?currency=EUR&unit=gram');
prices.addEventListener('price', (e) => {
  const p = JSON.parse(e.data);
  // Every price is in the currency and unit asked; null when none was ever seen.
  document.title = p.price === null ? 'Gold: unavailable' : \`Gold \${p.price} \${p.currency}/\${p.unit}\${p.data_state.status === 'stale' ? ' (stale)' : ''}\`;
});`;
