import { parseSubmission } from "~/components/parse-submission.server";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { teamPagePaths } from "~/features/team/paths";
import { roleFormDefaults, roleFormSchema } from "~/features/team/roles/role-form";
import { RolePage } from "~/features/team/roles/role-page";
import { rejectSubmission } from "~/platform/action-errors.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { findRole, updateCustomRole } from "~/platform/roles.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `Edit ${loaded?.role.name ?? "role"} · Roles · Cloud Console` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const role = await findRole(api, tenantId, params.roleId ?? "").catch((error: unknown) =>
    throwRouteError(error, undefined, headers),
  );
  // Built-in roles are the catalogue's: only custom roles have an edit page.
  if (!role || role.builtIn) throw redirect("/404", { headers });
  return data({ role }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: roleFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  let name: string;
  try {
    ({ name } = await updateCustomRole(api, tenantId, params.roleId ?? "", submission.value));
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    teamPagePaths.roles,
    { variant: "success", message: `Role ${name} saved` },
    { headers },
  );
}

export default function EditRolePage() {
  const { role } = useLoaderData<typeof loader>();
  return (
    <RolePage
      title={`Edit ${role.name}`}
      submitLabel="Save role"
      lastResult={useActionData<typeof action>()}
      defaultValue={roleFormDefaults(role)}
    />
  );
}
