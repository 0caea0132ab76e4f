import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import * as z from "zod";
import { canDo } from "#contract/permissions";
import { renameOrganizationRequestSchema } from "#contract/users";
import { refreshSessionTokens } from "~/auth/auth.server";
import { Button } from "~/components/button";
import { FormErrors, TextField } from "~/components/forms";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { membersPerRole } from "~/features/team/member-roles";
import { teamPagePaths } from "~/features/team/paths";
import { rejectSubmission } from "~/platform/action-errors.server";
import {
  getMyPermissions,
  getOrganizationSettings,
  getSubscription,
  listMembers,
  removeMember,
  renameOrganization,
} from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { dataWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Organization overview · Cloud Console" }];

const renameFormSchema = renameOrganizationRequestSchema.extend({ intent: z.literal("rename") });
const leaveFormSchema = z.object({ intent: z.literal("leave") });

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const [organization, subscription, members, permissions] = await Promise.all([
    getOrganizationSettings(api, tenantId),
    getSubscription(api, tenantId),
    listMembers(api, tenantId),
    getMyPermissions(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  return data(
    {
      organization,
      plan: subscription.plan,
      memberCount: members.length,
      perRole: membersPerRole(members),
      canRename: canDo(permissions, "organization.manage"),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, user, session, headers, saveSession } = await requireOrganizationClient(request);
  const formData = await request.formData();
  if (formData.get("intent") === "leave") {
    const submission = parseSubmission(formData, { schema: leaveFormSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
    try {
      await removeMember(api, tenantId, user.sub);
    } catch (error) {
      return rejectSubmission(submission, error, headers);
    }
    // The organization list comes from the identity token: a fresh one no longer names the organization left.
    await refreshSessionTokens(session);
    session.unset("organizationId");
    await saveSession();
    throw redirect("/", { headers });
  }
  const submission = parseSubmission(formData, { schema: renameFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await renameOrganization(api, tenantId, submission.value.displayName);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  return dataWithToast(
    submission.reply(),
    { variant: "success", message: "Organization name saved" },
    { headers },
  );
}

function resultFor(result: SubmissionResult<string[]> | undefined, intent: "rename" | "leave") {
  const submitted = (result?.initialValue as { intent?: unknown } | null | undefined)?.intent;
  return submitted === intent ? result : undefined;
}

export default function OrganizationOverviewPage() {
  const { organization, plan, memberCount, perRole, canRename } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [leaving, setLeaving] = useState(false);
  useEffect(() => setLeaving(false), [actionResult]);
  const [renameForm, renameFields] = useForm({
    id: "rename-organization",
    lastResult: resultFor(actionResult, "rename"),
    defaultValue: { displayName: organization.displayName },
    constraint: getZodConstraint(renameFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: renameFormSchema }),
    shouldValidate: "onBlur",
  });
  const [leaveForm] = useForm({ id: "leave-organization", lastResult: resultFor(actionResult, "leave") });

  return (
    <Stack gap="md" maw={760}>
      <Anchor component={Link} to={teamPagePaths.members} size="sm">
        ← Users
      </Anchor>
      <Title order={2}>Organization overview</Title>

      <Paper withBorder p="lg">
        <Stack gap="md">
          {canRename ? (
            <Form method="post" {...getFormProps(renameForm)}>
              <Stack gap="sm">
                <FormErrors errors={renameForm.errors} id={renameForm.errorId} />
                <Group align="flex-end" gap="sm">
                  <TextField field={renameFields.displayName} label="Display name" w={360} />
                  <Button type="submit" name="intent" value="rename" loading={navigation.state !== "idle"}>
                    Save
                  </Button>
                </Group>
              </Stack>
            </Form>
          ) : (
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Display name
              </Text>
              <Text>{organization.displayName}</Text>
            </Stack>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Detail label="Identifier" value={organization.name} />
            <Detail label="Organization id" value={organization.id} />
            <Detail label="Referral code" value={organization.referralCode} />
          </SimpleGrid>
        </Stack>
      </Paper>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="lg">
          <Title order={3} size="h4" mb="sm">
            Members per role
          </Title>
          <Table aria-label="Members per role">
            <Table.Tbody>
              {perRole.map(({ role, count }) => (
                <Table.Tr key={role}>
                  <Table.Td>{role}</Table.Td>
                  <Table.Td ta="right">{count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed" mt="xs">
            {memberCount} members in all
          </Text>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={3} size="h4" mb="sm">
            Plan
          </Title>
          <Text fw={600}>{plan.name}</Text>
          <Text size="sm">
            Up to {plan.limits.members} members, {plan.limits.environments} environments,{" "}
            {plan.limits.servicesPerEnvironment} services per environment and {plan.limits.serviceAccounts}{" "}
            service accounts.
          </Text>
        </Paper>
      </SimpleGrid>

      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(leaveForm)}>
          <Stack gap="sm">
            <Title order={3} size="h4">
              Leave the organization
            </Title>
            <Text size="sm">
              You lose access to {organization.displayName} until someone invites you again.
            </Text>
            {leaveForm.errors?.length ? (
              <Alert color="red" role="alert" id={leaveForm.errorId} title="You are still a member">
                {leaveForm.errors.join(" ")}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button
                type="submit"
                name="intent"
                value="leave"
                variant="danger"
                onClick={(event) => {
                  // Without JavaScript the button submits at once; with it, the dialog asks first.
                  event.preventDefault();
                  setLeaving(true);
                }}
              >
                Leave organization
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <ConfirmDialog
        opened={leaving}
        onClose={() => setLeaving(false)}
        title="Leave organization"
        formId={leaveForm.id}
        intent="leave"
        confirmLabel="Leave"
        danger
        busy={navigation.state !== "idle"}
      >
        Leave {organization.displayName}? You lose access at once.
      </ConfirmDialog>
    </Stack>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Code>{value}</Code>
    </Stack>
  );
}
