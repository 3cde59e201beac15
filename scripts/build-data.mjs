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
    let cur = '',
      quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cur);
        cur = '';
      } else cur += ch;
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
  JSON.stringify(
    { source: 'World Gold Council, World official gold holdings (IMF IFS), Aug 2026 edition', published: '2026-08-20', rows: holdings },
    null,
    1,
  ) + '\n',
);
console.log(`wrote ${holdings.length} holdings rows`);

// Central-bank gold by country: the latest reported figure per country (WGC quarterly table,
// latest non-AWAITED value and its quarter's end month), with the ISO3 code from the WGC
// dashboard snapshot (matched by name). Countries with no figure at all are left out.
const latest = parseCsv(fs.readFileSync(path.join(src, 'cb-gold-reserves-latest-from-quarterly.csv'), 'utf8'));
const dashboard = parseCsv(fs.readFileSync(path.join(src, 'cb-gold-reserves.csv'), 'utf8'));
const iso3 = new Map();
for (const r of dashboard) {
  iso3.set(r.country, r.iso3);
  iso3.set(r.country_wgc, r.iso3);
}
const reserves = latest
  .filter((r) => r.gold_reserves_tonnes !== '')
  .map((r) => {
    const code = iso3.get(r.country);
    if (!code) throw new Error(`no ISO3 for ${r.country}`);
    return { country: r.country, iso3: code, tonnes: Number(r.gold_reserves_tonnes), reporting_month: r.as_of_month, quarter: r.as_of_quarter };
  })
  .sort((a, b) => b.tonnes - a.tonnes);
fs.writeFileSync(
  path.join(out, 'reserves-snapshot.json'),
  JSON.stringify(
    {
      source:
        'World Gold Council, central-bank gold reserves by country (IMF IFS data), quarterly table Q4 2000 to Q1 2026: latest reported value per country',
      countries: reserves,
    },
    null,
    1,
  ) + '\n',
);
console.log(`wrote ${reserves.length} reserve rows`);
