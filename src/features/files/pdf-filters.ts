// PDF stream filters (ISO 32000-1 §7.4) as small pure functions, so an upload's streams can be read
// the way a viewer reads them before they are checked for active content. Each decoder stops at
// `limit` output bytes (a compressed bomb stops there) and, like viewers, keeps what it decoded
// before a corrupt byte instead of failing.

/** Parameters of a filter (its /DecodeParms entry); absent keys take the PDF defaults. */
export interface DecodeParms {
  Predictor?: number;
  Colors?: number;
  BitsPerComponent?: number;
  Columns?: number;
  EarlyChange?: number;
}

/** A byte buffer that grows up to a limit; bytes past the limit are dropped. */
class Output {
  private buf: Uint8Array;
  length = 0;
  constructor(
    private readonly limit: number,
    sizeHint: number,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(limit, sizeHint)));
  }
  get full() {
    return this.length >= this.limit;
  }
  /** Room for `n` more bytes (fewer at the limit); returns how many may be written. */
  reserve(n: number): number {
    const room = Math.min(n, this.limit - this.length);
    if (this.length + room > this.buf.length) {
      const grown = new Uint8Array(Math.min(this.limit, Math.max(this.length + room, this.buf.length * 2)));
      grown.set(this.buf.subarray(0, this.length));
      this.buf = grown;
    }
    return room;
  }
  push(byte: number) {
    if (this.reserve(1)) this.buf[this.length++] = byte;
  }
  pushAll(bytes: Uint8Array) {
    const n = this.reserve(bytes.length);
    this.buf.set(bytes.subarray(0, n), this.length);
    this.length += n;
  }
  /** Writes `byte` at `length + offset` (inside a reserved span) without moving the end. */
  set(offset: number, byte: number) {
    this.buf[this.length + offset] = byte;
  }
  bytes() {
    return this.buf.subarray(0, this.length);
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/** ASCIIHexDecode: hex digit pairs up to `>`; other bytes are skipped; an odd last digit is followed by 0. */
export function asciiHexDecode(data: Uint8Array, limit: number): Uint8Array {
  const out = new Output(limit, data.length >> 1);
  let high = -1;
  for (const b of data) {
    if (b === 0x3e || out.full) break;
    const v = hexValue(b);
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.push((high << 4) | v);
      high = -1;
    }
  }
  if (high >= 0) out.push(high << 4);
  return out.bytes();
}

/** ASCII85Decode: groups of five base-85 digits (`!`..`u`), `z` for four zeros, up to `~>`. */
export function ascii85Decode(data: Uint8Array, limit: number): Uint8Array {
  const out = new Output(limit, data.length);
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (i < group.length ? group[i] : 84);
    for (let i = 0; i < count; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group.length = 0;
  };
  for (const b of data) {
    if (b === 0x7e || out.full) break;
    if (b === 0x7a && group.length === 0) {
      for (let i = 0; i < 4; i++) out.push(0);
    } else if (b >= 0x21 && b <= 0x75) {
      group.push(b - 0x21);
      if (group.length === 5) flush(4);
    }
    // Whitespace and stray bytes are skipped.
  }
  if (group.length > 1) flush(group.length - 1);
  return out.bytes();
}

/** RunLengthDecode: a length byte n, then n+1 literal bytes (n < 128) or one byte repeated 257-n times (n > 128); 128 ends. */
export function runLengthDecode(data: Uint8Array, limit: number): Uint8Array {
  const out = new Output(limit, data.length * 2);
  let i = 0;
  while (i < data.length && !out.full) {
    const n = data[i++];
    if (n === 128) break;
    if (n < 128) {
      out.pushAll(data.subarray(i, i + n + 1));
      i += n + 1;
    } else if (i < data.length) {
      const byte = data[i++];
      for (let k = 0; k < 257 - n; k++) out.push(byte);
    }
  }
  return out.bytes();
}

/**
 * LZWDecode: 9- to 12-bit codes, 256 clears the table, 257 ends; EarlyChange (default 1) widens the
 * codes one entry early, as PDF writers do. The table is kept as prefix links, so each code costs
 * a few array writes.
 */
export function lzwDecode(data: Uint8Array, limit: number, earlyChange = 1): Uint8Array {
  const out = new Output(limit, data.length * 3);
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let c = 0; c < 256; c++) [prefix[c], suffix[c], first[c], length[c]] = [-1, c, c, 1];
  let [width, next, previous, acc, bits] = [9, 258, -1, 0, 0];
  const write = (code: number) => {
    const n = out.reserve(length[code]);
    // The string is stored back to front: walk the links, writing only what fits under the limit.
    for (let c = code, at = length[code] - 1; c >= 0; c = prefix[c], at--) if (at < n) out.set(at, suffix[c]);
    out.length += n;
  };
  for (const b of data) {
    acc = ((acc << 8) | b) & 0xffffff;
    bits += 8;
    while (bits >= width && !out.full) {
      const code = (acc >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        [width, next, previous] = [9, 258, -1];
        continue;
      }
      if (code === 257 || code > next || (code === next && previous < 0)) return out.bytes();
      if (previous >= 0 && next < 4096) {
        // The new entry is the previous string plus the first byte of this one (of itself, for code === next).
        [prefix[next], first[next], length[next]] = [previous, first[previous], length[previous] + 1];
        suffix[next] = code === next ? first[previous] : first[code];
        next++;
        if (next + earlyChange >= 1 << width && width < 12) width++;
      }
      write(code);
      previous = code;
    }
  }
  return out.bytes();
}

/**
 * FlateDecode (zlib; a bare deflate stream as some writers produce is accepted too). The end-of-line
 * or padding after the compressed data is not an error: whatever was inflated before it is kept.
 */
export async function flateDecode(data: Uint8Array, limit: number): Promise<Uint8Array> {
  const zlib = await inflate(data, limit, 'deflate');
  return zlib.length > 0 ? zlib : inflate(data, limit, 'deflate-raw');
}

async function inflate(data: Uint8Array, limit: number, format: 'deflate' | 'deflate-raw'): Promise<Uint8Array> {
  const out = new Output(limit, data.length * 4);
  const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream(format)).getReader();
  try {
    while (!out.full) {
      const { done, value } = await reader.read();
      if (done) break;
      out.pushAll(value);
    }
    if (out.full) await reader.cancel();
  } catch {
    // Corrupt or trailing bytes: keep what came before.
  }
  return out.bytes();
}

/** Undoes a PNG (Predictor >= 10, a filter-type byte per row) or TIFF (Predictor 2) predictor. */
export function unpredict(data: Uint8Array, parms: DecodeParms = {}): Uint8Array {
  const predictor = parms.Predictor ?? 1;
  if (predictor < 2) return data;
  const colors = parms.Colors ?? 1;
  const bpc = parms.BitsPerComponent ?? 8;
  const columns = parms.Columns ?? 1;
  if (![1, 2, 4, 8, 16].includes(bpc) || colors < 1 || colors > 32 || columns < 1) return data;
  const rowBytes = Math.ceil((colors * bpc * columns) / 8);
  const pixelBytes = Math.ceil((colors * bpc) / 8);
  return predictor === 2 ? tiffUnpredict(data, rowBytes, colors, bpc) : pngUnpredict(data, rowBytes, pixelBytes);
}

function pngUnpredict(data: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowBytes + 1)];
    const src = data.subarray(r * (rowBytes + 1) + 1, (r + 1) * (rowBytes + 1));
    const row = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= bpp ? out[row + i - bpp] : 0;
      const up = r > 0 ? out[row - rowBytes + i] : 0;
      const upLeft = r > 0 && i >= bpp ? out[row - rowBytes + i - bpp] : 0;
      out[row + i] = src[i] + pngPredict(type, left, up, upLeft);
    }
  }
  return out;
}

function pngPredict(type: number, left: number, up: number, upLeft: number): number {
  switch (type) {
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    default:
      return 0;
  }
}

/** TIFF predictor 2: each component is the difference from the same component of the pixel before it in the row. */
function tiffUnpredict(data: Uint8Array, rowBytes: number, colors: number, bpc: number): Uint8Array {
  const out = new Uint8Array(data.length - (data.length % rowBytes));
  const mask = (1 << bpc) - 1;
  const components = Math.floor((rowBytes * 8) / bpc);
  const read = (bytes: Uint8Array, row: number, k: number) => {
    const bit = k * bpc;
    if (bpc === 16) return (bytes[row + (bit >> 3)] << 8) | bytes[row + (bit >> 3) + 1];
    return (bytes[row + (bit >> 3)] >> (8 - bpc - (bit & 7))) & mask;
  };
  for (let row = 0; row < out.length; row += rowBytes) {
    for (let k = 0; k < components; k++) {
      const value = (read(data, row, k) + (k >= colors ? read(out, row, k - colors) : 0)) & mask;
      const bit = k * bpc;
      if (bpc === 16) [out[row + (bit >> 3)], out[row + (bit >> 3) + 1]] = [value >> 8, value & 0xff];
      else out[row + (bit >> 3)] |= value << (8 - bpc - (bit & 7));
    }
  }
  return out;
}

/** Filters that end a chain: what they decode to is an image, never read as PDF objects. */
export const IMAGE_FILTERS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'CCITTFaxDecode', 'CCF', 'JBIG2Decode']);

const ABBREVIATIONS: Record<string, string> = {
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
};

/**
 * One filter applied to `data`: the decoded bytes, or null when the filter is an image codec,
 * encryption or unknown (the chain stops there).
 */
export async function decodeFilter(name: string, data: Uint8Array, parms: DecodeParms, limit: number): Promise<Uint8Array | null> {
  switch (ABBREVIATIONS[name] ?? name) {
    case 'ASCIIHexDecode':
      return asciiHexDecode(data, limit);
    case 'ASCII85Decode':
      return ascii85Decode(data, limit);
    case 'RunLengthDecode':
      return runLengthDecode(data, limit);
    case 'FlateDecode':
      return unpredict(await flateDecode(data, limit), parms);
    case 'LZWDecode':
      return unpredict(lzwDecode(data, limit, parms.EarlyChange ?? 1), parms);
    default:
      return null;
  }
}
