// Small PNG pictures drawn in code for the demo documents (an identity card, a damaged parcel), so
// the console's KYC queue and disputes show real images without binary files in the repository.
type Rgb = [number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(raw: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An RGB PNG of `width` x `height` whose pixel colours come from `paint`. */
export async function drawPng(width: number, height: number, paint: (x: number, y: number) => Rgb): Promise<Uint8Array> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) raw.set(paint(x, y), row + 1 + x * 3);
  }
  const header = new Uint8Array(13);
  const h = new DataView(header.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', await deflate(raw)), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const inRect = (x: number, y: number, x0: number, y0: number, w: number, h: number) => x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;

/** A made-up identity card: photo, name lines, machine-readable zone. */
export const identityCard = () =>
  drawPng(480, 300, (x, y) => {
    if (!inRect(x, y, 10, 10, 460, 280)) return [226, 232, 240];
    if (inRect(x, y, 10, 10, 460, 44)) return [31, 94, 255];
    if (inRect(x, y, 30, 74, 120, 150)) {
      const dx = x - 90;
      const head = dx * dx + (y - 125) ** 2 < 30 * 30;
      const body = dx * dx + ((y - 215) * 0.8) ** 2 < 55 * 55;
      return head || body ? [120, 130, 150] : [200, 208, 222];
    }
    for (const [ly, lw] of [[84, 200], [110, 250], [136, 170], [162, 220], [188, 140]] as const) if (inRect(x, y, 172, ly, lw, 10)) return [90, 100, 120];
    if (inRect(x, y, 30, 240, 420, 8) || inRect(x, y, 30, 258, 420, 8)) return (x >> 3) % 2 ? [60, 66, 80] : [248, 250, 253];
    return [248, 250, 253];
  });

/** A cardboard box with a tear: the dispute's evidence. */
export const damagedParcel = () =>
  drawPng(400, 300, (x, y) => {
    const box = inRect(x, y, 70, 60, 260, 190);
    if (!box) return [236, 236, 232];
    if (inRect(x, y, 185, 60, 30, 190)) return [214, 190, 140]; // tape
    // A jagged diagonal tear across the lid.
    const tear = x > 100 && x < 300 && Math.abs(y - (90 + (x - 100) * 0.6 + ((x >> 3) % 2 ? 7 : -7))) < 5;
    if (tear) return [70, 50, 30];
    return [193, 154, 107];
  });
