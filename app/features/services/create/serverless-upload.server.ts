import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { SERVERLESS_UPLOAD_BODY_MAX_BYTES, SERVERLESS_UPLOAD_MAX_BYTES } from "#contract/service-catalogue";
import { serviceErrorMessages } from "#contract/services";

export type ReceivedArchive =
  | { kind: "file"; file: File }
  | { kind: "error"; status: 400 | 413; message: string };

/** A zip archive starts with a local file header, or with the end-of-directory record when it is empty. */
function looksLikeZip(bytes: Uint8Array): boolean {
  const [p, k, a, b] = bytes;
  return p === 0x50 && k === 0x4b && ((a === 0x03 && b === 0x04) || (a === 0x05 && b === 0x06));
}

/**
 * Reads the archive from a multipart request's field `file`, in memory and never more than
 * SERVERLESS_UPLOAD_MAX_BYTES, and refuses what is missing, too large or not a zip with a message the page shows.
 */
export async function receiveServerlessArchive(request: Request): Promise<ReceivedArchive> {
  const declaredLength = Number(request.headers.get("Content-Length"));
  if (declaredLength > SERVERLESS_UPLOAD_BODY_MAX_BYTES) {
    return { kind: "error", status: 413, message: serviceErrorMessages.uploadTooLarge };
  }
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return { kind: "error", status: 400, message: serviceErrorMessages.uploadMissing };
  }
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({
        maxPartSize: SERVERLESS_UPLOAD_MAX_BYTES,
        filter: ({ name }) => name === "file",
      }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      return { kind: "error", status: 413, message: serviceErrorMessages.uploadTooLarge };
    }
    throw error;
  }
  const file = formData.get("file");
  if (!(file instanceof Blob) || file.size === 0) {
    return { kind: "error", status: 400, message: serviceErrorMessages.uploadMissing };
  }
  const named = file instanceof File ? file : new File([file], "archive.zip");
  const head = new Uint8Array(await named.slice(0, 4).arrayBuffer());
  if (!/\.zip$/i.test(named.name) || !looksLikeZip(head)) {
    return { kind: "error", status: 400, message: serviceErrorMessages.uploadNotZip };
  }
  return { kind: "file", file: named };
}
