// Rebuilds the JSON data bundled in lib/data/ from the provenance-documented files in
// ../shared/data (see lib/data/SOURCES.md). Selection and format conversion only: no value is
// computed or typed in. Run: node scripts/build-data.mjs [path/to/shared/data]
import fs from 'node:fs';
import path from 'node:path';

const src = process.argv[2] ?? path.resolve(import.meta.dirname, '../../shared/data');
const out = path.resolve(import.meta.dirname, '../lib/data');

/** Minimal RFC 4180 reader: quoted fields may hold commas. */
export function parseCsv(text) {
  const rows = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line) continue;
    const cells = [];
    let cur = '', quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; }
        else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') { cells.push(cur); cur = ''; }
      else cur += ch;
    }
    cells.push(cur);
    rows.push(cells);
  }
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const holdings = parseCsv(fs.readFileSync(path.join(src, 'cb-gold-holdings-wgc-2026-08.csv'), 'utf8')).map((r) => ({
  country: r.country,
  tonnes: Number(r.holdings_tonnes),
  share_of_reserves: r.gold_share_of_reserves === '' ? null : Number(r.gold_share_of_reserves),
}));
fs.writeFileSync(
  path.join(out, 'wgc-official-holdings-2026-08.json'),
  JSON.stringify({ source: 'World Gold Council, World official gold holdings (IMF IFS), Aug 2026 edition', published: '2026-08-20', rows: holdings }, null, 1) + '\n',
);
console.log(`wrote ${holdings.length} holdings rows`);
