import { parseSubmission } from "~/components/parse-submission.server";
import { data } from "@remix-run/node";
import {
  CONNECTION_CHECK_FAILED,
  connectionKindSchema,
  connectionPages,
  type Connection,
} from "#contract/connections";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { createConnection, updateConnection } from "~/platform/connections.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import { connectionFormSchema, secretInputNames, type SaveConnectionResult } from "./connection-form";

/**
 * The create and edit pages' action: the form checked as the platform checks it, then saved (verified unless
 * 'Save without verifying'). Secret values never go back in the answer (`hideFields`): the browser keeps what was
 * typed. A refused check (422) shows the provider's answer on the form and on the field it names.
 */
export async function saveConnectionAction(request: Request, target: { connectionId?: string }) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const formData = await request.formData();
  const mode = target.connectionId ? "edit" : "create";
  const submission = parseSubmission(formData, {
    schema: connectionFormSchema(mode),
    disableAutoCoercion: true,
  });
  const kind = connectionKindSchema.safeParse(formData.get("kind"));
  const hideFields = kind.success ? secretInputNames(kind.data, String(formData.get("method") ?? "")) : [];
  const answer = (result: SaveConnectionResult, status: number) => data(result, { status, headers });

  if (submission.status !== "success") {
    return answer({ result: submission.reply({ hideFields }), checkFailed: false }, 400);
  }
  let saved: Connection;
  try {
    saved = target.connectionId
      ? await updateConnection(api, tenantId, target.connectionId, submission.value)
      : await createConnection(api, tenantId, submission.value);
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    if (error.code === CONNECTION_CHECK_FAILED) {
      const result = submission.reply({
        formErrors: [error.message],
        fieldErrors: error.fieldErrors ?? {},
        hideFields,
      });
      return answer({ result, checkFailed: true }, error.status);
    }
    if (error.fieldErrors) {
      const result = submission.reply({ fieldErrors: error.fieldErrors, hideFields });
      return answer({ result, checkFailed: false }, error.status);
    }
    const message = userMessageOf(error);
    return dataWithToast<SaveConnectionResult>(
      { result: submission.reply({ formErrors: [message], hideFields }), checkFailed: false },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
  const how = {
    VERIFIED: "verified",
    FAILING: "saved, failing its check",
    UNVERIFIED: "saved without verifying",
  }[saved.status];
  throw await redirectWithToast(
    connectionPages.view(saved.kind, saved.id),
    { variant: "success", message: `${saved.name} ${how}` },
    { headers },
  );
}
