import type { LiveView } from './live-price-view';

// The landing page's live price card, server-rendered with the current price; the page's script
// refreshes it every 30 s (the spot cache time). Each part the script rewrites carries `data-f`.

export function LivePrice({ view }: { view: LiveView }) {
  return (
    <section className="card" aria-labelledby="live-title" id="live">
      <h2 id="live-title" style={{ margin: 0, fontSize: '1rem' }} className="muted">
        Gold spot, USD per troy ounce
      </h2>
      <p className="price" aria-live="polite" style={{ margin: '4px 0' }} data-f="price">
        {view.price}
      </p>
      <p style={{ margin: 0 }}>
        <span className={view.state.className} data-f="state">
          {view.state.text}
        </span>{' '}
        <span className="muted" data-f="as-of">
          {view.asOf}
        </span>
      </p>
      <p data-testid="spot-change" data-f="change" className={view.change?.dir} style={{ margin: '0 0 4px' }} hidden={!view.change}>
        <span aria-hidden="true">{view.change?.arrow}</span> <span>{view.change?.text}</span>
      </p>
      <p className="muted" style={{ marginBottom: 0 }} data-f="details" hidden={!view.details}>
        {view.details}
      </p>
    </section>
  );
}
