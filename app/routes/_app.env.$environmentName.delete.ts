import { parseSubmission } from "~/components/parse-submission.server";
import { data, type ActionFunctionArgs } from "@remix-run/node";
import { deleteEnvironmentSchema } from "~/features/environments/delete-environment";
import { environmentPagePaths } from "~/features/environments/paths";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { rejectSubmission } from "~/platform/action-errors.server";
import { deleteEnvironment } from "~/platform/environments.server";
import { redirectWithToast } from "~/toast.server";

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
