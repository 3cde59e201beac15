// `npm run import-daily -- --symbol xau FILE.csv`: loads daily spot bars an operator holds the rights to
// (a licensed LBMA or broker file, their own records) into whichever store the environment selects: Redis
// when REDIS_URL is set, KV when KV_REST_API_URL and KV_REST_API_TOKEN are set, else the embedded store in DATA_DIR.
//
// The file is a CSV whose header names the columns in any case and order: `date` (or `time`), `open`, `high`,
// `low`, `close`; other columns (volume, tick_volume, Adj Close…) are ignored, so a broker's export
// (`time,open,high,low,close,tick_volume`) or a Yahoo download (`Date,Open,High,Low,Close,Adj Close,Volume`)
// loads as it is. A day is `YYYY-MM-DD` or a timestamp whose date is taken (`2024-03-01 00:00:00`); it must lie
// within the 10 years kept and not after the current session. Yahoo's `null` rows (no trading) are skipped and
// counted. Any other problem refuses the file whole with its line number. The bars are written in one
// transaction (embedded) or one script (KV, Redis): all or nothing. Imported bars carry origin `imported`; a date
// already holding a bar the service recorded keeps it. The summary says how many bars were written and kept.
import fs from 'node:fs';
import { BAR_RETENTION_YEARS, BAR_SERIES } from '../lib/prices/bars';
import { ImportError, importDaily, IMPORT_HEADER, metalOfSymbol, type ImportResult } from '../lib/prices/bars-import';
import { getStore } from '../lib/store';

const SYMBOLS = Object.values(BAR_SERIES).map((s) => s.symbol);
const USAGE = `usage: npm run import-daily -- --symbol ${SYMBOLS.join('|')} FILE.csv
  FILE: CSV with a header naming date (or time), open, high, low, close in any case and order, e.g. ${IMPORT_HEADER};
  other columns are ignored. Days YYYY-MM-DD (or a timestamp: its date is taken), increasing, within the last
  ${BAR_RETENTION_YEARS} years and not after the current session.`;
/** Kept dates are listed up to this many; beyond, their count and span. */
const LIST_UP_TO = 10;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(symbol: string, where: string, r: ImportResult): string {
  const kept = r.kept.length;
  const dates = !kept ? '' : kept <= LIST_UP_TO ? `: ${r.kept.join(', ')}` : ` (${r.kept[0]} to ${r.kept[kept - 1]})`;
  const lines = r.skipped.length === 1 ? 'line' : 'lines';
  const skipped = r.skipped.length ? `; ${plural(r.skipped.length, 'row')} without prices (null) skipped: ${lines} ${r.skipped.join(', ')}` : '';
  return `${plural(r.written, `${symbol} bar`)} imported into ${where} (${r.from} to ${r.to}); ${plural(kept, 'recorded bar')} kept${dates}${skipped}`;
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
  // Ten years of bars go to KV or Redis in one script: give it longer than a request-time read gets.
  process.env.KV_TIMEOUT_MS ||= '30000';
  let result: ImportResult;
  try {
    result = await importDaily(metal, text);
  } catch (err) {
    if (err instanceof ImportError) fail(`${file}: refused, nothing written. ${err.message}`);
    await getStore().close();
    const reason = err instanceof Error ? err.message : String(err);
    fail(`${file}: not imported: ${reason}. A file is written whole or not at all, so running the import again is safe.`);
  }
  const store = getStore();
  await store.close();
  console.log(`${file}: ${summary(BAR_SERIES[metal].symbol, { kv: 'KV', redis: 'Redis', embedded: 'the embedded store' }[store.kind], result)}`);
}

main().catch((err) => fail(`import-daily failed: ${err instanceof Error ? err.message : String(err)}`));
