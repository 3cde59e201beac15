// Renders public/icon.svg into public/favicon.ico (16, 32 and 48 px PNGs in one ICO) with headless
// Chromium, for clients that ask for /favicon.ico without reading the page's <link rel="icon">.
// Run once after changing the icon: `node scripts/make-favicon.mjs` (CHROMIUM_PATH overrides the browser).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const svg = fs.readFileSync(path.join(root, 'public', 'icon.svg'), 'utf8');
const SIZES = [16, 32, 48];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true });
const pngs = [];
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" style="display:block" `)}</body></html>`,
    );
    pngs.push(await page.screenshot({ omitBackground: true, type: 'png' }));
    await page.close();
  }
} finally {
  await browser.close();
}

// ICO: a 6-byte header, one 16-byte directory entry per image, then the PNG files as they are.
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // type 1: icon
header.writeUInt16LE(pngs.length, 4);
let offset = 6 + 16 * pngs.length;
const entries = pngs.map((png, i) => {
  const e = Buffer.alloc(16);
  e.writeUInt8(SIZES[i] % 256, 0); // width (0 would mean 256)
  e.writeUInt8(SIZES[i] % 256, 1); // height
  e.writeUInt8(0, 2); // no palette
  e.writeUInt8(0, 3); // reserved
  e.writeUInt16LE(1, 4); // colour planes
  e.writeUInt16LE(32, 6); // bits per pixel
  e.writeUInt32LE(png.length, 8);
  e.writeUInt32LE(offset, 12);
  offset += png.length;
  return e;
});
const out = path.join(root, 'public', 'favicon.ico');
fs.writeFileSync(out, Buffer.concat([header, ...entries, ...pngs]));
console.log(`${path.relative(root, out)}: ${SIZES.join(', ')} px, ${fs.statSync(out).size} bytes`);
