import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Checkbox, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DEFAULT_API_TOKEN_DAYS, type ApiToken } from "#contract/api-tokens";
import { permissionDescriptions, permissions as catalogue, type Permission } from "#contract/permissions";
import { Button } from "~/components/button";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FormErrors, SelectField, TextField } from "~/components/forms";
import { parseSubmission } from "~/components/parse-submission.server";
import {
  ApiTokensTable,
  NewTokenValue,
  type NewToken,
  RegenerateTokenDialog,
  TokenActions,
} from "~/features/api-tokens/api-token-parts";
import { createTokenFormSchema, expiryChoices, personalTokenFormSchema } from "~/features/api-tokens/forms";
import { rejectSubmission } from "~/platform/action-errors.server";
import {
  createMyApiToken,
  listMyApiTokens,
  regenerateMyApiToken,
  revokeMyApiToken,
} from "~/platform/api-tokens.server";
import { getMyPermissions } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";
import { dataWithToast } from "~/toast.server";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "API tokens · Settings · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const [tokens, effective] = await Promise.all([
    listMyApiTokens(api, tenantId),
    getMyPermissions(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  // A token may be narrowed to any permission its owner holds, in the organization or in an environment.
  const held = new Set<Permission>([
    ...effective.organization,
    ...Object.values(effective.environments).flat(),
  ]);
  return data(
    { tokens, held: catalogue.filter((permission) => held.has(permission)), now: new Date().toISOString() },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: personalTokenFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const form = submission.value;
  try {
    if (form.intent === "create") {
      const created = await createMyApiToken(api, tenantId, {
        name: form.name,
        expiresInDays: Number(form.expiresInDays),
        permissions: form.permissions?.length ? form.permissions : undefined,
      });
      // The value goes to the page once, in this answer: never in a cookie, never in the loader's data.
      return dataWithToast(
        {
          result: submission.reply({ resetForm: true }),
          created: { name: created.token.name, value: created.value },
        },
        { variant: "success", message: `API token ${created.token.name} created` },
        { headers },
      );
    }
    if (form.intent === "regenerate") {
      const created = await regenerateMyApiToken(api, tenantId, form.tokenId, {
        expiresInDays: Number(form.expiresInDays),
      });
      return dataWithToast(
        {
          result: submission.reply(),
          created: { name: created.token.name, value: created.value, regenerated: true },
        },
        { variant: "success", message: `API token ${created.token.name} regenerated` },
        { headers },
      );
    }
    await revokeMyApiToken(api, tenantId, form.tokenId);
    return dataWithToast(
      { result: submission.reply() },
      { variant: "success", message: `API token ${form.tokenName} revoked` },
      { headers },
    );
  } catch (error) {
    const rejected = await rejectSubmission(submission, error, headers);
    return data({ result: rejected.data }, rejected.init ?? undefined);
  }
}

export default function ApiTokensPage() {
  const { tokens, held, now } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const created = answer && "created" in answer ? (answer.created as NewToken) : null;
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [regenerating, setRegenerating] = useState<ApiToken | null>(null);
  useEffect(() => {
    setRevoking(null);
    setRegenerating(null);
  }, [answer]);
  const [form, fields] = useForm({
    id: "create-api-token",
    lastResult: navigation.state === "idle" ? answer?.result : null,
    defaultValue: { expiresInDays: String(DEFAULT_API_TOKEN_DAYS) },
    constraint: getZodConstraint(createTokenFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: personalTokenFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // One hidden form for the token a dialog asks about: revoke or regenerate, as the confirm button says.
  const [revokeForm] = useForm({ id: "change-api-token" });
  const ticked = new Set([fields.permissions.initialValue ?? []].flat());
  return (
    <Stack gap="md">
      <Title order={3}>API tokens</Title>
      <Text c="dimmed" size="sm">
        Tokens let scripts and CI pipelines call the platform API as you, in this organization only. They
        start with <code>ccp_</code> so secret scanners can find a leaked one; revoke it here and it stops
        working at once.
      </Text>
      {created ? <NewTokenValue {...created} /> : null}
      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <Title order={4}>Create a token</Title>
            <FormErrors errors={form.errors} id={form.errorId} />
            <Group align="flex-start" grow>
              <TextField
                field={fields.name}
                label="Name"
                description="What the token is for"
                maxLength={100}
              />
              <SelectField
                field={fields.expiresInDays}
                label="Expires after"
                data={expiryChoices}
                allowDeselect={false}
              />
            </Group>
            <Stack gap="xs" key={fields.permissions.key}>
              <Text fw={500} size="sm" id="token-permissions-label">
                Permissions
              </Text>
              <Text size="xs" c="dimmed">
                Tick some to narrow the token; tick none and it holds all of yours, as they change.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} role="group" aria-labelledby="token-permissions-label">
                {held.map((permission) => (
                  <Checkbox
                    key={permission}
                    name={fields.permissions.name}
                    value={permission}
                    label={permission}
                    description={permissionDescriptions[permission]}
                    defaultChecked={ticked.has(permission)}
                  />
                ))}
              </SimpleGrid>
              {fields.permissions.errors?.[0] ? (
                <Text c="red" size="sm" role="alert">
                  {fields.permissions.errors[0]}
                </Text>
              ) : null}
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" name="intent" value="create" loading={navigation.state === "submitting"}>
                Create token
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      {tokens.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-api-tokens">
          You have no API tokens in this organization.
        </Text>
      ) : (
        <ApiTokensTable
          tokens={tokens}
          now={now}
          label="Your API tokens"
          showPermissions
          actions={(token) => (
            <TokenActions
              token={token}
              onRegenerate={() => setRegenerating(token)}
              onRevoke={() => setRevoking(token)}
            />
          )}
        />
      )}
      <Form method="post" {...getFormProps(revokeForm)}>
        <input type="hidden" name="tokenId" value={(revoking ?? regenerating)?.id ?? ""} />
        <input type="hidden" name="tokenName" value={(revoking ?? regenerating)?.name ?? ""} />
      </Form>
      <RegenerateTokenDialog
        token={regenerating}
        formId={revokeForm.id}
        onClose={() => setRegenerating(null)}
        busy={navigation.state !== "idle"}
      />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke API token"
        formId={revokeForm.id}
        intent="revoke"
        confirmLabel="Revoke"
        danger
        busy={navigation.state !== "idle"}
      >
        Revoke the token {revoking?.name}? Anything using it is refused from its next request.
      </ConfirmDialog>
    </Stack>
  );
}
