import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Anchor, Card, Group, List, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import type { CloudProvider } from "#contract/cloud-providers";
import { errorCodes } from "#contract/errors";
import { fastbootRequestSchema, type Fastboot } from "#contract/fastboot";
import { Button } from "~/components/button";
import { FormErrors, SelectField, TextField } from "~/components/forms";
import { cloudAccountChoices, defaultCloudAccountOf } from "~/features/connections/connection-links.server";
import { formatUsd } from "~/features/environments/cost";
import { cloudProviderLabels, defaultRegion, regionOptions } from "~/features/environments/cloud-regions";
import { environmentPagePaths } from "~/features/environments/paths";
import { fastbootPagePaths } from "~/features/fastboot/paths";
import { placementOf } from "~/features/fastboot/placement";
import { requirePermission } from "~/features/permissions/permissions.server";
import { settingsPaths } from "~/features/settings/paths";
import { rejectSubmission } from "~/platform/action-errors.server";
import { listConnections } from "~/platform/connections.server";
import { createFastboot, listFastbootStacks } from "~/platform/fastboot.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Fastboot · Cloud Console" }];

/**
 * SPEC §2.2 /fastboot/configure (issue 17): a starter stack, the new environment's name, the cloud account (or the
 * simulated cloud) and the region; one click creates and launches everything, then the progress page follows it.
 * `?cloudConnectionId=&region=` prices the stacks for another placement (the form's fetcher asks for it).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, headers } = client;
  const [connections] = await Promise.all([
    listConnections(api, tenantId, { category: "cloud-provider" }).catch((error: unknown) =>
      throwRouteError(error, errorCodes.workspaceListFetch, headers),
    ),
    requirePermission(request, client, "environments.create"),
  ]);
  const cloudAccounts = cloudAccountChoices(connections);
  const query = new URL(request.url).searchParams;
  // Without a choice yet, a verified container host ("This machine") is offered first: it deploys for real.
  const placement = placementOf(
    cloudAccounts,
    { cloudConnectionId: query.get("cloudConnectionId"), region: query.get("region") },
    defaultCloudAccountOf(connections),
  );
  const { stacks } = await listFastbootStacks(api, tenantId, placement).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  return data({ cloudAccounts, ...placement, stacks }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: fastbootRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  let fastboot: Fastboot;
  try {
    fastboot = await createFastboot(api, tenantId, submission.value);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    fastbootPagePaths.progress(fastboot.id),
    { variant: "success", message: `Creating ${fastboot.environment.name}: ${fastboot.stackName}` },
    { headers },
  );
}

export default function FastbootConfigure() {
  const loaded = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const priced = useFetcher<typeof loader>();
  const { cloudAccounts } = loaded;
  const [form, fields] = useForm({
    lastResult,
    defaultValue: {
      stack: "web-postgres",
      region: loaded.region,
      cloudConnectionId: loaded.cloudConnectionId,
    },
    constraint: getZodConstraint(fastbootRequestSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: fastbootRequestSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const accountOf = (id: string | undefined) => cloudAccounts.find((choice) => choice.value === id);
  const cloudProvider: CloudProvider = accountOf(fields.cloudConnectionId.value)?.provider ?? "AWS";
  const stacks = priced.data?.stacks ?? loaded.stacks;
  const reprice = (cloudConnectionId: string | undefined, region: string) =>
    priced.load(fastbootPagePaths.estimates({ cloudConnectionId, region }));

  return (
    <Stack gap="md" maw={960}>
      <Stack gap={4}>
        <Title order={2}>Fastboot an environment</Title>
        <Text c="dimmed">
          Pick a starter stack: one click creates a new environment with its network and services, then
          launches them in order (network first, applications last, wired to what they use).
        </Text>
      </Stack>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} mb="xs">
              Starter stack
            </Text>
            <SimpleGrid cols={{ base: 1, md: 3 }} aria-busy={priced.state !== "idle"}>
              {stacks.map((stack) => {
                const { key, ...radio } = getInputProps(fields.stack, { type: "radio", value: stack.id });
                const chosen = (fields.stack.value ?? "web-postgres") === stack.id;
                return (
                  <Card
                    key={stack.id}
                    component="label"
                    withBorder
                    padding="md"
                    data-testid={`stack-${stack.id}`}
                    style={chosen ? { borderColor: "var(--mantine-primary-color-filled)" } : undefined}
                  >
                    <Stack gap="xs">
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        <input key={key} {...radio} aria-describedby={`${stack.id}-creates`} />
                        <Text fw={600}>{stack.name}</Text>
                      </Group>
                      <Text size="sm" c="dimmed">
                        {stack.description}
                      </Text>
                      <Text size="sm" fw={600}>
                        Creates
                      </Text>
                      <List size="sm" spacing={2} id={`${stack.id}-creates`}>
                        {stack.creates.map((service) => (
                          <List.Item key={service.name}>
                            <Text span size="sm" ff="monospace">
                              {service.name}
                            </Text>{" "}
                            {service.description}
                          </List.Item>
                        ))}
                      </List>
                      <Text size="sm" data-testid="stack-estimate">
                        Estimated <strong>{formatUsd(stack.estimate.monthlyCost)}</strong> a month
                      </Text>
                    </Stack>
                  </Card>
                );
              })}
            </SimpleGrid>
            {fields.stack.errors ? (
              <Text c="red" size="sm" id={fields.stack.errorId} role="alert">
                {fields.stack.errors[0]}
              </Text>
            ) : null}
          </Stack>
          <Paper withBorder p="lg" maw={560}>
            <Stack gap="md">
              <TextField
                field={fields.name}
                label="Environment name"
                description="The new environment, for example demo. Lowercase letters, digits and hyphens."
                autoComplete="off"
              />
              <SelectField
                field={fields.cloudConnectionId}
                label="Cloud account"
                description={
                  <>
                    Optional: the connected account everything runs in.{" "}
                    <Anchor component={Link} to={settingsPaths.connections} size="xs">
                      Connect an account
                    </Anchor>
                  </>
                }
                data={cloudAccounts.map(({ value, label }) => ({ value, label }))}
                placeholder="None: the simulated cloud (AWS)"
                clearable
                nothingFoundMessage="No cloud account is connected"
                onChange={(value) => {
                  const provider = accountOf(value ?? undefined)?.provider ?? "AWS";
                  const region =
                    provider === cloudProvider && fields.region.value
                      ? fields.region.value
                      : defaultRegion(provider);
                  form.update({ name: fields.region.name, value: region });
                  void reprice(value ?? undefined, region);
                }}
              />
              <SelectField
                field={fields.region}
                label="Region"
                description={`Where the services run (${cloudProviderLabels[cloudProvider]}).`}
                data={regionOptions(cloudProvider)}
                searchable
                allowDeselect={false}
                nothingFoundMessage="No region matches"
                onChange={(region) => {
                  if (region) void reprice(fields.cloudConnectionId.value, region);
                }}
              />
              <Group justify="flex-end">
                <Button component={Link} to={environmentPagePaths.list} variant="secondary">
                  Cancel
                </Button>
                <Button type="submit" loading={navigation.state === "submitting"}>
                  Create and launch
                </Button>
              </Group>
            </Stack>
          </Paper>
        </Stack>
      </Form>
    </Stack>
  );
}
