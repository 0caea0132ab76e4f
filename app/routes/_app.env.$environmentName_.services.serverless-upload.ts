import { data, type ActionFunctionArgs } from "@remix-run/node";
import type { ServerlessUploadResult } from "~/features/services/create/archive-upload";
import { receiveServerlessArchive } from "~/features/services/create/serverless-upload.server";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { uploadServerlessArchive } from "~/platform/services.server";

/** POST multipart (`file`): a serverless function archive, passed on to the platform; answers its upload summary. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const received = await receiveServerlessArchive(request);
  if (received.kind === "error") {
    return data<ServerlessUploadResult>(
      { kind: "error", message: received.message },
      { status: received.status, headers },
    );
  }
  try {
    const upload = await uploadServerlessArchive(
      api,
      tenantId,
      environment.id,
      received.file,
      received.file.name,
    );
    return data<ServerlessUploadResult>({ kind: "uploaded", upload }, { status: 201, headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return data<ServerlessUploadResult>(
      { kind: "error", message: userMessageOf(error) },
      { status: error.status || 502, headers },
    );
  }
}
