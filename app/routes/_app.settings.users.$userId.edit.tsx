import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Checkbox, Group, Paper, Radio, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import * as z from "zod";
import { Button } from "~/components/button";
import { FormErrors, SelectField } from "~/components/forms";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { describeGrant, memberRoleFormSchema, roleChoiceOf, roleOptions } from "~/features/team/member-roles";
import { teamPagePaths } from "~/features/team/paths";
import { rejectSubmission } from "~/platform/action-errors.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { getMember, listRoles, removeMember, updateMemberRoles } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `Edit ${loaded?.member.name ?? "member"} · Users · Cloud Console` },
];

const removeFormSchema = z.object({ intent: z.literal("remove") });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, headers } = client;
  await requirePermission(request, client, "users.manage");
  const [member, roles, environments] = await Promise.all([
    getMember(api, tenantId, params.userId ?? ""),
    listRoles(api, tenantId),
    listEnvironmentSummaries(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  return data(
    { member, roles, environments: environments.map(({ id, name }) => ({ id, name })) },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const userId = params.userId ?? "";
  const formData = await request.formData();
  if (formData.get("intent") === "remove") {
    const submission = parseSubmission(formData, { schema: removeFormSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
    try {
      await removeMember(api, tenantId, userId);
    } catch (error) {
      return rejectSubmission(submission, error, headers);
    }
    throw await redirectWithToast(
      teamPagePaths.members,
      { variant: "success", message: "Member removed from the organization" },
      { headers },
    );
  }
  const submission = parseSubmission(formData, { schema: memberRoleFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await updateMemberRoles(api, tenantId, userId, [submission.value]);
  } catch (error) {
    return rejectSubmission(submission, error, headers, { fieldPrefix: "roles.0." });
  }
  throw await redirectWithToast(
    teamPagePaths.member(userId),
    { variant: "success", message: "Roles saved" },
    { headers },
  );
}

/** The result of the form that was submitted: each form only shows its own. */
function resultFor(result: SubmissionResult<string[]> | undefined, intent: "roles" | "remove") {
  const submitted = (result?.initialValue as { intent?: unknown } | null | undefined)?.intent;
  return submitted === intent ? result : undefined;
}

export default function EditMemberPage() {
  const { member, roles, environments } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [confirming, setConfirming] = useState<"roles" | "remove" | null>(null);
  // An answer (a refusal such as the last admin's) closes the dialog, so the form shows it.
  useEffect(() => setConfirming(null), [actionResult]);
  const environmentNames = new Map(environments.map(({ id, name }) => [id, name]));
  // The form sets one grant; the first one the member holds is where it starts.
  const current = member.roles[0];
  const [rolesForm, rolesFields] = useForm({
    id: "member-roles",
    lastResult: resultFor(actionResult, "roles"),
    defaultValue: {
      role: current ? roleChoiceOf(current) : "read-only",
      scope: current?.environmentIds ? "environments" : "organization",
      environmentIds: current?.environmentIds ?? [],
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: memberRoleFormSchema }),
    shouldValidate: "onSubmit",
  });
  const [removeForm] = useForm({
    id: "remove-member",
    lastResult: resultFor(actionResult, "remove"),
  });
  const [scope, setScope] = useState(rolesFields.scope.initialValue ?? "organization");
  const options = roleOptions(roles);
  const chosenRole = options.find((option) => option.value === rolesFields.role.value)?.label ?? "the role";
  const chosenEnvironments = ([rolesFields.environmentIds.value].flat().filter(Boolean) as string[]).map(
    (id) => environmentNames.get(id) ?? id,
  );
  const openConfirmation = (intent: "roles" | "remove") => (event: { preventDefault: () => void }) => {
    // Without JavaScript the button submits at once; with it, the dialog asks first.
    event.preventDefault();
    setConfirming(intent);
  };

  return (
    <Stack gap="md" maw={720}>
      <Anchor component={Link} to={teamPagePaths.member(member.id)} size="sm">
        ← {member.name}
      </Anchor>
      <Title order={2}>Edit {member.name}</Title>
      <Text c="dimmed">{member.email}</Text>

      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(rolesForm)}>
          <Stack gap="md">
            <Title order={3} size="h4">
              Role
            </Title>
            {member.roles.length > 1 ? (
              <Text size="sm">
                Holds {member.roles.map((grant) => describeGrant(grant, environmentNames)).join("; ")}. Saving
                replaces these with the role below.
              </Text>
            ) : null}
            <FormErrors errors={rolesForm.errors} id={rolesForm.errorId} />
            <SelectField field={rolesFields.role} label="Role" data={options} allowDeselect={false} />
            <Radio.Group
              label="Applies to"
              name={rolesFields.scope.name}
              value={scope}
              onChange={setScope}
              error={rolesFields.scope.errors?.[0]}
            >
              <Group gap="lg" mt={4}>
                <Radio value="organization" label="The whole organization" />
                <Radio value="environments" label="Chosen environments" />
              </Group>
            </Radio.Group>
            {scope === "environments" ? (
              <Checkbox.Group
                label="Environments"
                defaultValue={current?.environmentIds ?? []}
                error={rolesFields.environmentIds.errors?.[0]}
              >
                <Stack gap={4} mt={4}>
                  {environments.map((environment) => (
                    <Checkbox
                      key={environment.id}
                      name={rolesFields.environmentIds.name}
                      value={environment.id}
                      label={environment.name}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" name="intent" value="roles" onClick={openConfirmation("roles")}>
                Save role
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>

      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(removeForm)}>
          <Stack gap="sm">
            <Title order={3} size="h4">
              Remove from organization
            </Title>
            <Text size="sm">They lose access at their next request. You can invite them again later.</Text>
            {removeForm.errors?.length ? (
              <Alert color="red" role="alert" id={removeForm.errorId} title="Not removed">
                {removeForm.errors.join(" ")}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button
                type="submit"
                name="intent"
                value="remove"
                variant="danger"
                onClick={openConfirmation("remove")}
              >
                Remove from organization
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>

      <ConfirmDialog
        opened={confirming === "roles"}
        onClose={() => setConfirming(null)}
        title="Change role"
        formId={rolesForm.id}
        intent="roles"
        confirmLabel="Change role"
        busy={busy}
      >
        {member.name} becomes {chosenRole} on{" "}
        {scope === "organization"
          ? "the whole organization"
          : chosenEnvironments.length
            ? chosenEnvironments.join(", ")
            : "no environment yet"}
        .
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirming === "remove"}
        onClose={() => setConfirming(null)}
        title="Remove member"
        formId={removeForm.id}
        intent="remove"
        confirmLabel="Remove"
        danger
        busy={busy}
      >
        Remove {member.name} from the organization? They lose access at their next request.
      </ConfirmDialog>
    </Stack>
  );
}
