import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { SERVERLESS_UPLOAD_MAX_BYTES } from "#contract/service-catalogue";
import { serviceErrorMessages } from "#contract/services";
import { receiveServerlessArchive } from "./serverless-upload.server";

function uploadRequest(file: File | null, headers: Record<string, string> = {}) {
  const body = new FormData();
  if (file) body.set("file", file);
  const request = new Request("http://app.test/env/prod/services/serverless-upload", {
    method: "POST",
    body,
  });
  const withHeaders = new Headers(request.headers);
  for (const [name, value] of Object.entries(headers)) withHeaders.set(name, value);
  return new Request(request, { headers: withHeaders });
}

const zip = () => new Uint8Array(zipSync({ "index.js": new TextEncoder().encode("exports.handler=()=>1") }));

describe("receiving a serverless archive", () => {
  it("accepts a zip", async () => {
    const received = await receiveServerlessArchive(uploadRequest(new File([zip()], "fn.zip")));
    expect(received.kind).toBe("file");
    expect(received.kind === "file" && received.file.name).toBe("fn.zip");
  });

  it("refuses a file that is not a zip, by content or by name", async () => {
    const text = await receiveServerlessArchive(uploadRequest(new File(["hello"], "fn.zip")));
    expect(text).toEqual({ kind: "error", status: 400, message: serviceErrorMessages.uploadNotZip });
    const named = await receiveServerlessArchive(uploadRequest(new File([zip()], "fn.tar")));
    expect(named).toEqual({ kind: "error", status: 400, message: serviceErrorMessages.uploadNotZip });
  });

  it("asks for a file when none came", async () => {
    expect(await receiveServerlessArchive(uploadRequest(null))).toEqual({
      kind: "error",
      status: 400,
      message: serviceErrorMessages.uploadMissing,
    });
  });

  it("refuses an archive beyond the limit", async () => {
    const declared = await receiveServerlessArchive(
      uploadRequest(new File([zip()], "fn.zip"), {
        "Content-Length": String(SERVERLESS_UPLOAD_MAX_BYTES * 2),
      }),
    );
    expect(declared).toEqual({ kind: "error", status: 413, message: serviceErrorMessages.uploadTooLarge });
    const big = new Uint8Array(SERVERLESS_UPLOAD_MAX_BYTES + 1);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    const streamed = await receiveServerlessArchive(uploadRequest(new File([big], "fn.zip")));
    expect(streamed).toEqual({ kind: "error", status: 413, message: serviceErrorMessages.uploadTooLarge });
  });
});
