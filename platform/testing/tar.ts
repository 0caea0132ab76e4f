/**
 * A ustar archive of a few files, in memory: the build context the tests send to the engine's build endpoint.
 * Small enough to write by hand rather than depend on a tar package for test images.
 */

export type TarEntry = { path: string; content: Uint8Array | string; mode?: number };

const BLOCK = 512;

function header(path: string, size: number, mode: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const field = (offset: number, length: number, value: string) =>
    block.write(value, offset, length, "ascii");
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0");
  field(0, 100, path);
  field(100, 8, octal(mode, 8));
  field(108, 8, octal(0, 8));
  field(116, 8, octal(0, 8));
  field(124, 12, octal(size, 12));
  field(136, 12, octal(0, 12));
  // The checksum is computed with its own field as spaces.
  field(148, 8, "        ");
  field(156, 1, "0");
  field(257, 6, "ustar\0");
  field(263, 2, "00");
  const sum = block.reduce((total, byte) => total + byte, 0);
  field(148, 8, `${octal(sum, 7)}\0`);
  return block;
}

export function tarOf(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const { path, content, mode = 0o644 } of entries) {
    if (path.length > 99) throw new Error(`${path}: names longer than 99 characters need a ustar prefix`);
    const data = typeof content === "string" ? Buffer.from(content) : Buffer.from(content);
    parts.push(header(path, data.length, mode), data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
  }
  // Two empty blocks end the archive.
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
