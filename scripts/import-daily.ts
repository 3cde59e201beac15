// `npm run import-daily -- --symbol xau FILE.csv`: loads daily spot bars an operator holds the rights to
// (a licensed LBMA or broker file, their own records) into whichever store the environment selects: KV
// when KV_REST_API_URL and KV_REST_API_TOKEN are set, else the embedded store in DATA_DIR. The file is
// `date,open,high,low,close`; a malformed file is refused whole with its line number and nothing is
// written. Imported bars carry origin `imported`; a date already holding a recorded bar keeps it.
import fs from 'node:fs';
import { BAR_SERIES } from '../lib/prices/bars';
import { ImportError, importBars, IMPORT_HEADER, metalOfSymbol, parseDailyCsv } from '../lib/prices/bars-import';
import { getStore } from '../lib/store';

const SYMBOLS = Object.values(BAR_SERIES).map((s) => s.symbol);
const USAGE = `usage: npm run import-daily -- --symbol ${SYMBOLS.join('|')} FILE.csv   (header: ${IMPORT_HEADER})`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--symbol');
  const symbol = at >= 0 ? args[at + 1] : undefined;
  const files = args.filter((_, i) => i !== at && i !== at + 1);
  if (!symbol || files.length !== 1) fail(USAGE);
  const metal = metalOfSymbol(symbol);
  if (!metal) fail(`Unknown symbol ${JSON.stringify(symbol)}. Valid values: ${SYMBOLS.join(', ')}`);
  const file = files[0];
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    fail(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let bars;
  try {
    bars = parseDailyCsv(text);
  } catch (err) {
    if (err instanceof ImportError) fail(`${file}: refused, nothing written. ${err.message}`);
    throw err;
  }
  const store = getStore();
  const { written, kept } = await importBars(metal, bars);
  await store.close();
  const where = store.kind === 'kv' ? 'KV' : 'the embedded store';
  console.log(
    `${file}: ${written} ${symbol.toLowerCase()} bars imported into ${where} (${bars[0].d} to ${bars[bars.length - 1].d})` +
      (kept.length ? `; ${kept.length} dates kept as recorded by the service: ${kept.join(', ')}` : ''),
  );
}

main().catch((err) => fail(`import-daily failed: ${err instanceof Error ? err.message : String(err)}`));
