import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Checkbox, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DEFAULT_API_TOKEN_DAYS, type ApiToken, type ServiceAccount } from "#contract/api-tokens";
import { errorMessages } from "#contract/errors";
import { canDo, roleNames } from "#contract/permissions";
import { Button } from "~/components/button";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FormErrors, SelectField, TextField } from "~/components/forms";
import { parseSubmission } from "~/components/parse-submission.server";
import { Restricted } from "~/components/restricted";
import {
  ApiTokensTable,
  NewTokenValue,
  RegenerateTokenDialog,
  TokenActions,
  type NewToken,
} from "~/features/api-tokens/api-token-parts";
import {
  createServiceAccountFormSchema,
  expiryChoices,
  serviceAccountFormSchema,
} from "~/features/api-tokens/forms";
import { teamPagePaths } from "~/features/team/paths";
import { rejectSubmission } from "~/platform/action-errors.server";
import {
  createServiceAccount,
  createServiceAccountToken,
  deleteServiceAccount,
  listServiceAccounts,
  regenerateServiceAccountToken,
  revokeServiceAccountToken,
} from "~/platform/api-tokens.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { getMyPermissions } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";
import { dataWithToast } from "~/toast.server";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Service accounts · Users · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  try {
    const permissions = await getMyPermissions(api, tenantId);
    const canManage = canDo(permissions, "users.manage");
    // Without users.manage the platform refuses the list: the page says so and disables its controls.
    const [serviceAccounts, environments] = canManage
      ? await Promise.all([listServiceAccounts(api, tenantId), listEnvironmentSummaries(api, tenantId)])
      : [[], []];
    return data(
      {
        canManage,
        serviceAccounts,
        environments: environments.map(({ id, name }) => ({ id, name })),
        now: new Date().toISOString(),
      },
      { headers },
    );
  } catch (error) {
    return throwRouteError(error, undefined, headers);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: serviceAccountFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const form = submission.value;
  try {
    switch (form.intent) {
      case "create-account": {
        const environmentIds = form.environmentIds?.length ? form.environmentIds : null;
        const account = await createServiceAccount(api, tenantId, {
          name: form.name,
          roles: [{ role: form.role, environmentIds }],
        });
        return dataWithToast(
          { result: submission.reply({ resetForm: true }) },
          { variant: "success", message: `Service account ${account.name} created` },
          { headers },
        );
      }
      case "create-token": {
        const created = await createServiceAccountToken(api, tenantId, form.serviceAccountId, {
          name: form.name,
          expiresInDays: Number(form.expiresInDays),
        });
        return dataWithToast(
          {
            result: submission.reply({ resetForm: true }),
            created: { name: created.token.name, value: created.value },
          },
          { variant: "success", message: `API token ${created.token.name} created` },
          { headers },
        );
      }
      case "revoke-token":
        await revokeServiceAccountToken(api, tenantId, form.serviceAccountId, form.tokenId);
        return dataWithToast(
          { result: submission.reply() },
          { variant: "success", message: `API token ${form.tokenName} revoked` },
          { headers },
        );
      case "regenerate-token": {
        const created = await regenerateServiceAccountToken(
          api,
          tenantId,
          form.serviceAccountId,
          form.tokenId,
          { expiresInDays: Number(form.expiresInDays) },
        );
        return dataWithToast(
          {
            result: submission.reply(),
            created: { name: created.token.name, value: created.value, regenerated: true },
          },
          { variant: "success", message: `API token ${created.token.name} regenerated` },
          { headers },
        );
      }
      case "delete-account":
        await deleteServiceAccount(api, tenantId, form.serviceAccountId);
        return dataWithToast(
          { result: submission.reply() },
          { variant: "success", message: `Service account ${form.name} deleted` },
          { headers },
        );
    }
  } catch (error) {
    const rejected = await rejectSubmission(submission, error, headers);
    return data({ result: rejected.data }, rejected.init ?? undefined);
  }
}

/** What the page asks to confirm: revoking or regenerating one token, or deleting an account with all its tokens. */
type Pending =
  | { intent: "revoke-token" | "regenerate-token"; account: ServiceAccount; token: ApiToken }
  | { intent: "delete-account"; account: ServiceAccount };

export default function ServiceAccountsPage() {
  const { canManage, serviceAccounts, environments, now } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const created = answer && "created" in answer ? (answer.created as NewToken) : null;
  const [pending, setPending] = useState<Pending | null>(null);
  useEffect(() => setPending(null), [answer]);
  const [form, fields] = useForm({
    id: "create-service-account",
    lastResult: navigation.state === "idle" ? answer?.result : null,
    defaultValue: { role: "developer" },
    constraint: getZodConstraint(createServiceAccountFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: serviceAccountFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [confirmForm] = useForm({ id: "confirm-service-account-change" });
  const environmentNames = new Map(environments.map(({ id, name }) => [id, name]));
  const busy = navigation.state !== "idle";
  return (
    <Stack gap="md">
      <Anchor component={Link} to={teamPagePaths.members} size="sm">
        ← Users
      </Anchor>
      <Title order={2}>Service accounts</Title>
      <Text c="dimmed" size="sm">
        A service account holds a role like a member, on the whole organization or on chosen environments, and
        calls the platform API with its own tokens: a CI pipeline deploys as it, and the audit log names it.
      </Text>
      {canManage ? null : (
        <Text size="sm" c="dimmed">
          {errorMessages.restrictedAccess}
        </Text>
      )}
      {created ? <NewTokenValue {...created} /> : null}
      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <Title order={4}>Create a service account</Title>
            <FormErrors errors={form.errors} id={form.errorId} />
            <Group align="flex-start" grow>
              <TextField field={fields.name} label="Name" maxLength={100} disabled={!canManage} />
              <SelectField
                field={fields.role}
                label="Role"
                data={[...roleNames]}
                allowDeselect={false}
                disabled={!canManage}
              />
            </Group>
            {environments.length ? (
              <Checkbox.Group
                label="Only in these environments"
                description="Tick none to grant the role on the whole organization"
                error={fields.environmentIds.errors?.[0]}
              >
                <Group mt="xs">
                  {environments.map((environment) => (
                    <Checkbox
                      key={environment.id}
                      name={fields.environmentIds.name}
                      value={environment.id}
                      label={environment.name}
                    />
                  ))}
                </Group>
              </Checkbox.Group>
            ) : null}
            <Group justify="flex-end">
              <Restricted allowed={canManage}>
                <Button type="submit" name="intent" value="create-account" loading={busy}>
                  Create service account
                </Button>
              </Restricted>
            </Group>
          </Stack>
        </Form>
      </Paper>
      {serviceAccounts.map((account) => (
        <Paper
          key={account.id}
          withBorder
          p="lg"
          aria-label={`Service account ${account.name}`}
          role="region"
        >
          <Stack gap="sm">
            <Group justify="space-between">
              <Stack gap={0}>
                <Title order={4}>{account.name}</Title>
                <Text size="sm" c="dimmed">
                  {account.roles
                    .map((grant) => {
                      const role = grant.role ?? grant.customRole?.name ?? "";
                      const where = grant.environmentIds
                        ? grant.environmentIds.map((id) => environmentNames.get(id) ?? id).join(", ")
                        : "the whole organization";
                      return `${role} on ${where}`;
                    })
                    .join("; ")}
                </Text>
              </Stack>
              <Button
                variant="secondary"
                size="small"
                onClick={() => setPending({ intent: "delete-account", account })}
              >
                Delete
              </Button>
            </Group>
            {account.tokens.length ? (
              <ApiTokensTable
                tokens={account.tokens}
                now={now}
                label={`Tokens of ${account.name}`}
                actions={(token) => (
                  <TokenActions
                    token={token}
                    onRegenerate={() => setPending({ intent: "regenerate-token", account, token })}
                    onRevoke={() => setPending({ intent: "revoke-token", account, token })}
                  />
                )}
              />
            ) : (
              <Text size="sm" c="dimmed">
                No tokens yet.
              </Text>
            )}
            <Form method="post" aria-label={`New token for ${account.name}`}>
              <input type="hidden" name="serviceAccountId" value={account.id} />
              <Group align="flex-end">
                <TextInput name="name" label="Token name" required maxLength={100} />
                <NativeSelect
                  name="expiresInDays"
                  label="Expires after"
                  data={expiryChoices}
                  defaultValue={String(DEFAULT_API_TOKEN_DAYS)}
                />
                <Button type="submit" name="intent" value="create-token" variant="secondary" loading={busy}>
                  Create token
                </Button>
              </Group>
            </Form>
          </Stack>
        </Paper>
      ))}
      <Form method="post" {...getFormProps(confirmForm)}>
        <input type="hidden" name="serviceAccountId" value={pending?.account.id ?? ""} />
        <input type="hidden" name="name" value={pending?.account.name ?? ""} />
        <input type="hidden" name="tokenId" value={pending && "token" in pending ? pending.token.id : ""} />
        <input
          type="hidden"
          name="tokenName"
          value={pending && "token" in pending ? pending.token.name : ""}
        />
      </Form>
      <RegenerateTokenDialog
        token={pending?.intent === "regenerate-token" ? pending.token : null}
        formId={confirmForm.id}
        intent="regenerate-token"
        onClose={() => setPending(null)}
        busy={busy}
      />
      <ConfirmDialog
        opened={pending?.intent === "revoke-token" || pending?.intent === "delete-account"}
        onClose={() => setPending(null)}
        title={pending?.intent === "delete-account" ? "Delete service account" : "Revoke API token"}
        formId={confirmForm.id}
        intent={pending?.intent ?? "revoke-token"}
        confirmLabel={pending?.intent === "delete-account" ? "Delete" : "Revoke"}
        danger
        busy={busy}
      >
        {pending?.intent === "delete-account"
          ? `Delete the service account ${pending.account.name}? Its ${pending.account.tokens.length} token(s) stop working at once.`
          : `Revoke the token ${pending?.intent === "revoke-token" ? pending.token.name : ""}? Anything using it is refused from its next request.`}
      </ConfirmDialog>
    </Stack>
  );
}
