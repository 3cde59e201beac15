import zlib from 'node:zlib';

// A PNG's pixels, for tests that check what an image shows (the Open Graph image draws its price): 8-bit RGB or RGBA,
// not interlaced, as resvg (behind next/og) writes them. Anything else throws, so a test cannot pass on an image it
// could not read.

export interface Pixels {
  width: number;
  height: number;
  /** Red, green, blue and alpha of each pixel, row by row. */
  rgba: Uint8Array;
}

export function decodePng(png: Buffer): Pixels {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('ascii');
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? cur[i - channels] : 0;
      const up = prev[i];
      const upLeft = i >= channels ? prev[i - channels] : 0;
      const p = left + up - upLeft;
      const paeth =
        Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft)
          ? left
          : Math.abs(p - up) <= Math.abs(p - upLeft)
            ? up
            : upLeft;
      const predictor = [0, left, up, (left + up) >> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      cur[i] = (line[i] + predictor) & 255;
    }
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) out[(y * width + x) * 4 + c] = c < channels ? cur[x * channels + c] : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** How many pixels differ from the top-left one (the background), as a share of all. */
export function inkShare({ width, height, rgba }: Pixels): number {
  let ink = 0;
  for (let i = 0; i < width * height * 4; i += 4) {
    if (rgba[i] !== rgba[0] || rgba[i + 1] !== rgba[1] || rgba[i + 2] !== rgba[2]) ink++;
  }
  return ink / (width * height);
}

/** How many pixels two images of one size differ in, as a share of all. */
export function differingShare(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differ = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (a.rgba[i] !== b.rgba[i] || a.rgba[i + 1] !== b.rgba[i + 1] || a.rgba[i + 2] !== b.rgba[i + 2]) differ++;
  }
  return differ / (a.width * a.height);
}
