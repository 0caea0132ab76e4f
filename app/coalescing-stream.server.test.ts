import { describe, expect, it } from "vitest";
import { coalescingStream } from "./coalescing-stream.server";

function chunksOf(stream: NodeJS.ReadableStream) {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  return chunks;
}

describe("coalescingStream", () => {
  it("hands on what is written in one go as one chunk, and a later write as the next", async () => {
    const stream = coalescingStream();
    const chunks = chunksOf(stream);
    stream.write("<html>");
    stream.write("<body>");
    stream.write("shell");
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(["<html><body>shell"]);

    stream.write("<template>late</template>");
    stream.end("</body></html>");
    await new Promise((resolve) => stream.on("end", resolve));
    expect(chunks).toEqual(["<html><body>shell", "<template>late</template></body></html>"]);
  });
});
