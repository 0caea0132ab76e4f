import { parseSubmission } from "~/components/parse-submission.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { errorCodes } from "#contract/errors";
import { deleteEnvironmentSchema } from "~/features/environments/delete-environment";
import { environmentPagePaths } from "~/features/environments/paths";
import type { PreviewThatGoes } from "~/features/environments/delete-environment-dialog";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { listPreviewsOfSource } from "~/platform/previews.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { rejectSubmission } from "~/platform/action-errors.server";
import { deleteEnvironment } from "~/platform/environments.server";
import { redirectWithToast } from "~/toast.server";

/**
 * GET: the deletion's plan, loaded by the delete dialog when it opens (not by every page of the environment, whose
 * polls ask for the environment alone): the pull requests whose previews are removed with it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const previews = await listPreviewsOfSource(api, tenantId, environment.id).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  const plan: PreviewThatGoes[] = previews.map(({ pullRequest }) => ({
    number: pullRequest.number,
    title: pullRequest.title,
  }));
  return data({ previews: plan }, { headers });
}

/**
 * Deletes the environment once its name was typed as the confirmation, then goes back to the list. An environment
 * in a cloud account has its services torn down there first: the platform answers 202 and the environment's page
 * shows the deletion in progress. The platform refuses (409) while anything in it is deploying: its message comes
 * back as an error toast.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers, session, saveSession } = await requireEnvironment(
    request,
    params.environmentName,
  );
  const submission = parseSubmission(await request.formData(), {
    schema: deleteEnvironmentSchema(environment.name),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  let removal: Awaited<ReturnType<typeof deleteEnvironment>>;
  try {
    removal = await deleteEnvironment(api, tenantId, environment.id);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  if (removal === "deleting") {
    throw await redirectWithToast(
      environmentPagePaths.section(environment.name),
      {
        variant: "success",
        message: `Deleting environment ${environment.name}: its services are being removed from its cloud account first`,
      },
      { headers },
    );
  }
  session.unset("environment");
  await saveSession();
  throw await redirectWithToast(
    environmentPagePaths.list,
    { variant: "success", message: `Environment ${environment.name} deleted` },
    { headers },
  );
}
