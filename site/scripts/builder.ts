import { KIND_FIELDS, snippets } from '../builder-snippets';

// The widget builder's behaviour: on every change, show the fields the chosen kind takes and rewrite
// both snippets and the preview from the form's values.

const root = document.getElementById('widget-builder')!;
const form = root.querySelector('form')!;
const origin = root.dataset.origin ?? location.origin;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function update() {
  const values = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
  const kind = values.kind as keyof typeof KIND_FIELDS;
  for (const group of form.querySelectorAll<HTMLElement>('[data-kinds]')) group.hidden = !group.dataset.kinds!.split(' ').includes(kind);
  const s = snippets(origin, values);
  $<HTMLTextAreaElement>('b-script').value = s.script;
  $<HTMLTextAreaElement>('b-iframe').value = s.iframe;
  const preview = $<HTMLIFrameElement>('b-preview');
  if (preview.getAttribute('src') !== s.src) preview.src = s.src;
  preview.title = `Gold ${kind} preview`;
  preview.style.height = `${s.height}px`;
}

form.addEventListener('input', update);
form.addEventListener('change', update);
form.addEventListener('submit', (e) => e.preventDefault());
update();
