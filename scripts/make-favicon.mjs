// Renders public/favicon.ico (16, 32 and 48 px PNGs in one ICO) from the shapes of public/favicon.svg: the
// brand's purple rounded square with a white cloud. Browsers ask for /favicon.ico whatever the page links, so
// the product ships both. Run it again after changing the shapes below: `node scripts/make-favicon.mjs`.
import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const PURPLE = [0x6e, 0x27, 0xd5];
const WHITE = [0xff, 0xff, 0xff];

/** The SVG's shapes in its 64-unit box: what colour the point (x, y) has, or null outside the square. */
function colourAt(x, y) {
  const radius = 14;
  const cx = Math.min(Math.max(x, radius), 64 - radius);
  const cy = Math.min(Math.max(y, radius), 64 - radius);
  if ((x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) return null;
  const inCircle = (ox, oy, r) => (x - ox) ** 2 + (y - oy) ** 2 <= r ** 2;
  const cloud =
    inCircle(34, 30, 13) ||
    inCircle(45, 35, 9) ||
    inCircle(21, 36, 8) ||
    (x >= 21 && x <= 45 && y >= 30 && y <= 44);
  return cloud ? WHITE : PURPLE;
}

/** RGBA pixels of a size × size rendering, 4 × 4 samples a pixel for smooth edges. */
function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt(
            ((px + (sx + 0.5) / samples) * 64) / size,
            ((py + (sy + 0.5) / samples) * 64) / size,
          );
          if (!colour) continue;
          colour.forEach((channel, index) => (sum[index] += channel));
          sum[3] += 255;
        }
      }
      const covered = sum[3] / 255;
      const offset = (py * size + px) * 4;
      for (let channel = 0; channel < 3; channel++) {
        pixels[offset + channel] = covered ? Math.round(sum[channel] / covered) : 0;
      }
      pixels[offset + 3] = Math.round(sum[3] / (samples * samples));
    }
  }
  return pixels;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, content) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(content.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), content]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const pixels = render(size);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const images = [16, 32, 48].map((size) => ({ size, data: png(size) }));
const directory = Buffer.alloc(6 + images.length * 16);
directory.writeUInt16LE(1, 2); // an icon
directory.writeUInt16LE(images.length, 4);
let offset = directory.length;
images.forEach(({ size, data }, index) => {
  const entry = 6 + index * 16;
  directory.writeUInt8(size, entry);
  directory.writeUInt8(size, entry + 1);
  directory.writeUInt16LE(1, entry + 4); // colour planes
  directory.writeUInt16LE(32, entry + 6); // bits per pixel
  directory.writeUInt32LE(data.length, entry + 8);
  directory.writeUInt32LE(offset, entry + 12);
  offset += data.length;
});
writeFileSync("public/favicon.ico", Buffer.concat([directory, ...images.map(({ data }) => data)]));
