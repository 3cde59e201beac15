import type { PriceEvent } from '../../lib/schemas/stream';
import type { Spot } from '../../lib/schemas/spot';
import type { Unit } from '../../lib/reference/units';
import { follow, pollOnly } from '../../widgets/scripts/live';
import { poll } from '../../widgets/scripts/shared';
import { figuresOfEvent, figuresOfSpot, headlineChars, isLive, textsOf, valuesOf, type Figures } from '../price-figures';
import type { PageConfig } from '../price-page';
import { mountWorth } from './price-value';

// A price page's behaviour (decisions §27): every figure follows the price stream (one per page, shared with any
// other frame of ours on it, widgets/scripts/live.ts), or spot polled when the stream cannot be had; the stream is
// taken up again when the page comes back from the back/forward cache; what metal is worth follows it too, and its
// forms answer as you type. The chart is a module of its own (it mounts on #chart).

const SPOT_EVERY_S = 30; // spot's cache time

const config = JSON.parse(document.getElementById('pp-config')!.textContent!) as PageConfig;
const words = config.words;
const unit = config.unit as Unit;
let figures: Figures | null = config.figures;

const marked = (name: string) => document.querySelectorAll<HTMLElement>(`[data-f="${name}"]`);
const headline = document.getElementById('pp-price');
const chart = document.getElementById('chart');

/** What the figures' words say, a stale price's age and the time zone aside: equal keys, equal words. */
const keyOf = (f: Figures) =>
  JSON.stringify([valuesOf(f), f.state.status, f.state.as_of, f.fx?.status, f.fx?.as_of, f.fx?.source, f.change?.previousCloseDate, f.market]);
/** The key of what the page shows: at first the server's figures, written in UTC (naming it). */
let shown = figures ? keyOf(figures) : '';

/**
 * Writes the figures' words and numbers into the page, in the reader's own time zone. Figures that say what the page
 * already says are not written again (`force` writes them anyway): the page's first formatting of a number builds the
 * browser's number data, tens of milliseconds of a phone's main thread, for the words the server wrote already.
 */
function show(f: Figures, force = false) {
  // A metal value can move when no figure's words do (a kilogram's value by a cent, its gram's price by less than 0.0001).
  worth?.price(config.usdOz, f.fxRate);
  const key = keyOf(f);
  if (!force && key === shown) return;
  shown = key;
  const texts = textsOf(f, words, Date.now());
  const values = valuesOf(f);
  for (const [name, text] of Object.entries(texts)) {
    for (const el of marked(name)) {
      if (el.textContent !== text) el.textContent = text;
      if (name in values) el.dataset.v = values[name] === null ? '' : String(values[name]);
    }
  }
  for (const el of marked('change')) {
    el.className = texts['change-dir'];
    el.dataset.pct = values['change-pct'] === null ? '' : String(values['change-pct']);
  }
  // The day change's split, in words beside it: the currency's part beside the metal's `data-v`.
  for (const el of marked('why')) el.dataset.fx = values['why-fx'] === null ? '' : String(values['why-fx']);
  for (const el of marked('state')) el.className = isLive(f) ? 'pill' : 'badge';
  // The headline's size follows its length (site/globals.css); its line's height does not, so nothing moves.
  headline?.style.setProperty('--chars', String(headlineChars(texts.price)));
  // The chart draws its 1D line at the rate spot uses now.
  if (chart && f.fxRate !== null) chart.dataset.fxRate = String(f.fxRate);
}

// "What your metal is worth": its values follow the price, its forms answer as you type (./price-value.ts).
const worth = mountWorth(config);

function onEvent(e: PriceEvent) {
  if (!figures) {
    // A page rendered while no price had ever been seen: the first real one renders it whole.
    if (e.metals[config.metal as Figures['metal']].usd_oz !== null) location.reload();
    return;
  }
  figures = figuresOfEvent(e, figures);
  const usd = e.metals[figures.metal].usd_oz;
  if (usd !== null) config.usdOz = usd;
  show(figures);
}

const query = `currency=${encodeURIComponent(config.currency)}&unit=${encodeURIComponent(unit)}`;
const polling = () =>
  poll<Spot>(
    () => `/api/v1/spot?${query}&compact=1`,
    SPOT_EVERY_S,
    (status, body) => {
      if (status !== 200 || !('xau' in body)) return;
      figures = figuresOfSpot(body, figures?.metal ?? (config.metal as Figures['metal']), unit);
      const usd = figures.metal === 'gold' ? body.spot_usd_oz : (body[`${figures.metal}_usd_oz` as 'silver_usd_oz'] ?? null);
      if (usd !== null) config.usdOz = usd;
      show(figures);
    },
  );

let last: PriceEvent | null = null;
const stream = pollOnly()
  ? null
  : follow(
      () => `/api/v1/stream?${query}`,
      (e) => onEvent((last = e)),
      polling,
    );
if (stream) {
  stream.open();
  // A stale price's age, or its rate's, keeps counting between events.
  setInterval(() => {
    if (last && figures && figures.state.status !== 'unavailable' && !isLive(figures)) show(figures, true);
  }, 1000);
} else polling();

// Back from the back/forward cache: the stream the page let go of as it was hidden is taken up again, and its first
// event is the current state.
addEventListener('pageshow', (e) => {
  if (e.persisted) stream?.open();
});

// The server wrote the times in UTC (naming it): they are written in the reader's own zone as soon as the reader uses
// the page, or when a figure changes, whichever comes first, not while the page loads.
const ownZone = () => {
  for (const type of ['pointerdown', 'keydown', 'scroll'] as const) removeEventListener(type, ownZone);
  if (figures) show(figures, true);
};
for (const type of ['pointerdown', 'keydown', 'scroll'] as const) addEventListener(type, ownZone, { passive: true });

// "Notify me": its script is a chunk of its own (site/scripts/price-alerts.ts), loaded when the section comes within a
// screen or so of the viewport, so this first script stays small; until then its button waits, disabled.
const notify = document.getElementById('notify');
if (notify) {
  const mount = () =>
    import('./price-alerts')
      .then((m) => m.mountAlerts(notify, config))
      // Offline or blocked: the section keeps its server-rendered note.
      .catch(() => undefined);
  if (typeof IntersectionObserver !== 'function') void mount();
  else {
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        near.disconnect();
        void mount();
      },
      { rootMargin: '600px 0px' },
    );
    near.observe(notify);
  }
}
