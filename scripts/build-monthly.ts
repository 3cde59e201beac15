// Builds the bundled monthly series (lib/data/worldbank-monthly-YYYY-MM-DD.json) from a copy of the World Bank's
// CMO-Historical-Data-Monthly.xlsx, with the service's own reader (lib/sources/upstream/worldbank.ts), so the snapshot
// holds exactly what a fetch of that edition would. Selection only: no value is computed or typed in.
// Run: node --import tsx scripts/build-monthly.ts path/to/CMO-Historical-Data-Monthly.xlsx
import fs from 'node:fs';
import path from 'node:path';
import { parseWorkbook } from '../lib/sources/upstream/worldbank';

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: build-monthly.ts path/to/CMO-Historical-Data-Monthly.xlsx');
  const book = await parseWorkbook(fs.readFileSync(file));
  const out = path.resolve(import.meta.dirname, `../lib/data/worldbank-monthly-${book.workbookDate}.json`);
  // One line per metal keeps the file small and its diff readable.
  const metals = Object.entries(book.metals).map(([id, m]) => `  ${JSON.stringify(id)}: ${JSON.stringify(m)}`);
  fs.writeFileSync(
    out,
    `{\n "workbookDate": ${JSON.stringify(book.workbookDate)},\n "from": ${JSON.stringify(book.from)},\n "metals": {\n${metals.join(',\n')}\n }\n}\n`,
  );
  const counts = Object.entries(book.metals).map(([id, m]) => `${id} ${m.c.filter((c) => c !== null).length}`);
  console.log(`wrote ${path.relative(process.cwd(), out)}: ${counts.join(', ')} months from ${book.from}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
