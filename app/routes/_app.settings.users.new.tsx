import { getFormProps, getTextareaProps, useForm, useInputControl } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Anchor, Button, Checkbox, Group, Radio, Stack, Text, Textarea, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { errorCodes } from "#contract/errors";
import { FormErrors, SelectField } from "~/components/forms";
import { SentInvitations } from "~/features/team/invitations/invitation-views";
import {
  invitationRequest,
  inviteFormErrors,
  inviteFormSchema,
} from "~/features/team/invitations/invite-form";
import { roleOptions } from "~/features/team/member-roles";
import { invitationPagePaths } from "~/features/team/invitations/paths";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { listEnvironments } from "~/platform/environments.server";
import { sendInvitations } from "~/platform/invitations.server";
import { listRoles } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { dataWithToast } from "~/toast.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Invite people · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, organization, headers } = client;
  const [environments, roles] = await Promise.all([
    listEnvironments(api, tenantId),
    listRoles(api, tenantId),
    requirePermission(request, client, "users.manage"),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  return data(
    {
      organizationName: organization.displayName,
      environments: environments.map(({ id, name }) => ({ id, name })),
      roleOptions: roleOptions(roles, { described: true }),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: inviteFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sent: null }, { status: 400, headers });
  }
  try {
    const sent = await sendInvitations(api, tenantId, invitationRequest(submission.value));
    return data({ result: submission.reply({ resetForm: true }), sent }, { headers });
  } catch (error) {
    if (isPlatformError(error) && error.fieldErrors) {
      const fieldErrors = inviteFormErrors(error.fieldErrors);
      return data(
        { result: submission.reply({ fieldErrors }), sent: null },
        { status: error.status, headers },
      );
    }
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast(
      { result: submission.reply({ formErrors: [message] }), sent: null },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
}

export default function InvitePeople() {
  const { organizationName, environments, roleOptions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    constraint: getZodConstraint(inviteFormSchema),
    defaultValue: { role: "developer", scope: "organization" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const scope = useInputControl(fields.scope);
  const [chosen, setChosen] = useState<string[]>([]);
  const { key: emailsKey, ...emailsProps } = getTextareaProps(fields.emails);
  return (
    <Stack gap="md" maw={640}>
      <Stack gap={0}>
        <Title order={2}>Invite people</Title>
        <Text c="dimmed" size="sm">
          {organizationName} ·{" "}
          <Anchor component={Link} to={invitationPagePaths.list}>
            Invitations
          </Anchor>{" "}
          ·{" "}
          <Anchor component={Link} to={invitationPagePaths.members}>
            Users
          </Anchor>
        </Text>
      </Stack>
      {actionData?.sent ? <SentInvitations sent={actionData.sent} /> : null}
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Textarea
            key={emailsKey}
            {...emailsProps}
            label="Email addresses"
            description="One or several, separated by commas or new lines. Each gets its own link, valid 7 days."
            autosize
            minRows={2}
            error={fields.emails.errors?.[0]}
          />
          <SelectField field={fields.role} label="Role" data={roleOptions} allowDeselect={false} />
          <Radio.Group
            name={fields.scope.name}
            label="Where the role applies"
            value={scope.value ?? "organization"}
            onChange={(value) => scope.change(value)}
          >
            <Group mt="xs">
              <Radio value="organization" label="The whole organization" />
              <Radio value="environments" label="Chosen environments" />
            </Group>
          </Radio.Group>
          {scope.value === "environments" ? (
            <Checkbox.Group
              label="Environments"
              value={chosen}
              onChange={setChosen}
              error={fields.environmentIds.errors?.[0]}
            >
              <Stack gap="xs" mt="xs">
                {environments.map((environment) => (
                  <Checkbox
                    key={environment.id}
                    name={fields.environmentIds.name}
                    value={environment.id}
                    label={environment.name}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : null}
          <Group>
            <Button type="submit" loading={navigation.state === "submitting"}>
              Send invitations
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}
