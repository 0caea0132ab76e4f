import { parseSubmission } from "~/components/parse-submission.server";
import { data, type ActionFunctionArgs, type MetaFunction, type LinksFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { teamPagePaths } from "~/features/team/paths";
import { roleFormSchema } from "~/features/team/roles/role-form";
import { RolePage } from "~/features/team/roles/role-page";
import { rejectSubmission } from "~/platform/action-errors.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { createCustomRole } from "~/platform/roles.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Create role · Users · Cloud Console" }];

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: roleFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  let name: string;
  try {
    ({ name } = await createCustomRole(api, tenantId, submission.value));
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    teamPagePaths.roles,
    { variant: "success", message: `Role ${name} created` },
    { headers },
  );
}

export default function CreateRolePage() {
  return (
    <RolePage title="Create role" submitLabel="Create role" lastResult={useActionData<typeof action>()} />
  );
}
