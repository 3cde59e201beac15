// embed.js: one script tag turns into a widget iframe. Either the tag's own data-* attributes
// (`<script src=".../embed.js" data-widget="price" data-currency="EUR">`) or every
// `<div data-gold-widget="price|chart|converter" data-...>` on the page. Safe to include twice;
// frames load when they come near the viewport and take the height their content reports. Every data-*
// attribute is passed on as a query parameter (`data-live="0"`: the widget polls instead of following the stream).
import { WIDGET_NAMES, WIDGETS, type WidgetName } from './kinds';

(() => {
  interface Registry {
    frames: Map<string, { frame: HTMLIFrameElement; origin: string }>;
    next: number;
  }
  const w = window as unknown as { __goldWidgets?: Registry };
  const first = !w.__goldWidgets;
  const reg: Registry = (w.__goldWidgets ??= { frames: new Map(), next: 0 });

  const tag = document.currentScript as HTMLScriptElement | null;
  if (!tag?.src) return;
  const origin = new URL(tag.src).origin;

  if (first) {
    addEventListener('message', (e: MessageEvent) => {
      const msg = e.data?.goldWidget;
      const entry = msg && reg.frames.get(String(msg.id));
      // Only the frame itself, from the widget server's origin, may resize or rename its iframe.
      if (!entry || e.origin !== entry.origin || e.source !== entry.frame.contentWindow) return;
      const h = Number(msg.height);
      if (Number.isFinite(h) && h > 0 && h < 5000) entry.frame.style.height = `${Math.ceil(h)}px`;
      if (typeof msg.title === 'string' && msg.title) entry.frame.title = msg.title.slice(0, 200);
    });
  }

  // A frame is a whole browsing context, costly to make even empty: until the widget comes near the
  // viewport, a placeholder of its height holds its place, and the frame replaces it then.
  const waiting = new Map<Element, () => void>();
  const lazy =
    'IntersectionObserver' in window
      ? new IntersectionObserver(
          (entries) => {
            for (const en of entries) {
              if (!en.isIntersecting) continue;
              lazy!.unobserve(en.target);
              waiting.get(en.target)?.();
              waiting.delete(en.target);
            }
          },
          { rootMargin: '200px' },
        )
      : null;

  function mount(host: HTMLElement, kind: string, data: DOMStringMap, place: (el: HTMLElement) => void) {
    if (!WIDGET_NAMES.includes(kind as WidgetName) || host.dataset.goldWidgetMounted) return;
    host.dataset.goldWidgetMounted = '1';
    const id = `gw${++reg.next}`;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(data)) {
      if (v !== undefined && !['widget', 'goldWidget', 'goldWidgetMounted'].includes(k)) params.set(k, v);
    }
    params.set('wid', id);
    const frame = document.createElement('iframe');
    const height = `${WIDGETS[kind as WidgetName].height}px`;
    frame.src = `${origin}/widgets/${kind}?${params}`;
    frame.title = WIDGETS[kind as WidgetName].title;
    frame.style.cssText = `width:100%;max-width:100%;border:0;display:block;height:${height}`;
    reg.frames.set(id, { frame, origin });
    if (!lazy) return place(frame);
    const slot = document.createElement('div');
    slot.dataset.goldWidgetSlot = kind;
    slot.style.height = height;
    waiting.set(slot, () => slot.replaceWith(frame));
    lazy.observe(slot);
    place(slot);
  }

  if (tag.dataset.widget) mount(tag, tag.dataset.widget, tag.dataset, (f) => tag.after(f));
  const scan = () =>
    document
      .querySelectorAll<HTMLElement>('[data-gold-widget]')
      .forEach((div) => mount(div, div.dataset.goldWidget || '', div.dataset, (f) => div.appendChild(f)));
  scan();
  // Run before the page was parsed (an async script in the head, say): the places after it come later.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
})();
