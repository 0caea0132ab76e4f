import { getFormProps, useForm } from "@conform-to/react";
import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Group, Stack, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import * as z from "zod";
import { errorMessages } from "#contract/errors";
import { canDo } from "#contract/permissions";
import { Button } from "~/components/button";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { teamPagePaths } from "~/features/team/paths";
import { holdersPerRole } from "~/features/team/roles/role-form";
import { RolesTable } from "~/features/team/roles/roles-table";
import { rejectSubmission } from "~/platform/action-errors.server";
import { getMyPermissions, listMembers, listRoles } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { deleteCustomRole } from "~/platform/roles.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Roles · Users · Cloud Console" }];

const deleteFormSchema = z.object({
  intent: z.literal("delete"),
  roleId: z.string({ error: "Choose the role to delete" }),
  roleName: z.string().default("The role"),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const [roles, members, permissions] = await Promise.all([
    listRoles(api, tenantId),
    listMembers(api, tenantId),
    getMyPermissions(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  return data(
    {
      roles,
      holders: Object.fromEntries(holdersPerRole(members)),
      canManage: canDo(permissions, "users.manage"),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: deleteFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await deleteCustomRole(api, tenantId, submission.value.roleId);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    teamPagePaths.roles,
    { variant: "success", message: `Role ${submission.value.roleName} deleted` },
    { headers },
  );
}

export default function RolesPage() {
  const { roles, holders, canManage } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  // An answer (a refusal such as a role still held) closes the dialog, so the page shows it.
  useEffect(() => setDeleting(null), [actionResult]);
  const [deleteForm] = useForm({ id: "delete-role", lastResult: actionResult });
  const refusedRole = (actionResult?.initialValue as { roleName?: unknown } | null | undefined)?.roleName;
  const customCount = roles.filter((role) => !role.builtIn).length;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={teamPagePaths.members} size="sm">
        ← Users
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>Roles</Title>
        {canManage ? (
          <Button component={Link} to={teamPagePaths.newRole}>
            Create role
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {errorMessages.restrictedAccess}
          </Text>
        )}
      </Group>
      <Text c="dimmed" size="sm">
        Grant a role on the whole organization or on chosen environments from a member&apos;s page or an
        invitation. Every member can view the organization.
      </Text>
      {deleteForm.errors?.length ? (
        <Alert
          color="red"
          role="alert"
          id={deleteForm.errorId}
          title={`${String(refusedRole ?? "Role")} not deleted`}
        >
          {deleteForm.errors.join(" ")}
        </Alert>
      ) : null}
      <RolesTable roles={roles} holders={holders} canManage={canManage} onDelete={setDeleting} />
      {customCount === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-custom-roles">
          No custom roles yet.{" "}
          {canManage
            ? "Create one to give members exactly the permissions they need, such as deploying without changing settings."
            : null}
        </Text>
      ) : null}
      <Form method="post" {...getFormProps(deleteForm)}>
        <input type="hidden" name="roleId" value={deleting?.id ?? ""} />
        <input type="hidden" name="roleName" value={deleting?.name ?? ""} />
      </Form>
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete role"
        formId={deleteForm.id}
        intent="delete"
        confirmLabel="Delete"
        danger
        busy={navigation.state !== "idle"}
      >
        Delete the role {deleting?.name}? A role still held by members cannot be deleted.
      </ConfirmDialog>
    </Stack>
  );
}
