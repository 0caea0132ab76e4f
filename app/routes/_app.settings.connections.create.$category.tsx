import { Anchor, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  connectionCategoryDescriptions,
  connectionCategorySchema,
  connectionCategoryTitles,
  connectionKindFromSlug,
  connectionPages,
} from "#contract/connections";
import { offeredKinds } from "~/features/connections/catalogue";
import { AwsRoleSetup } from "~/features/connections/aws-role-setup";
import { ConnectionEditor } from "~/features/connections/connection-editor";
import type { SaveConnectionResult } from "~/features/connections/connection-form";
import { loadEditorData } from "~/features/connections/editor-data.server";
import { KindChoice, MethodChoice } from "~/features/connections/kind-choice";
import { saveConnectionAction } from "~/features/connections/save-connection.server";
import { defaultFeatureFlags } from "~/features/feature-flags/flag-values";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  {
    title: `Connect ${loaded ? connectionCategoryTitles[loaded.category].toLowerCase() : ""} · Settings · Cloud Console`,
  },
];

/** /settings/connections/create/{category}?kind={slug}&method={id}: the kind, then its method, then its fields. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, headers } = client;
  const category = connectionCategorySchema.safeParse(params.category);
  if (!category.success) throw redirect("/404", { headers });
  const [flags] = await Promise.all([
    getFeatureFlags(api, { tenantId }).catch(() => defaultFeatureFlags()),
    requirePermission(request, client, "connections.manage"),
  ]);
  const kinds = offeredKinds(category.data, flags);
  if (!kinds.length) throw redirect("/404", { headers });
  const search = new URL(request.url).searchParams;
  const asked = connectionKindFromSlug(search.get("kind") ?? "");
  // A category with one kind to offer starts with it chosen.
  const chosen =
    kinds.find((definition) => definition.kind === asked) ?? (kinds.length === 1 ? kinds[0] : null);
  const editor = chosen ? await loadEditorData(api, tenantId, chosen.kind, search.get("method")) : null;
  return data(
    {
      category: category.data,
      kinds: kinds.map(({ kind, label, description }) => ({ kind, label, description })),
      chosen: chosen?.kind ?? null,
      methodId: editor?.methodId ?? null,
      editor,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  return saveConnectionAction(request, {});
}

export default function CreateConnectionPage() {
  const { category, kinds, chosen, methodId, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<SaveConnectionResult>();
  return (
    <Stack gap="md" maw={880}>
      <Anchor component={Link} to={connectionPages.index} size="sm">
        ← Connections
      </Anchor>
      <Stack gap={0}>
        <Title order={2}>Connect: {connectionCategoryTitles[category]}</Title>
        <Text c="dimmed" size="sm">
          {connectionCategoryDescriptions[category]} The credentials are checked with the provider when you
          save.
        </Text>
      </Stack>
      {kinds.length > 1 ? <KindChoice kinds={kinds} chosen={chosen} /> : null}
      {chosen && methodId && editor ? (
        <Paper withBorder p="lg">
          <Stack gap="md">
            <MethodChoice kind={chosen} methodId={methodId} unavailable={editor.unavailableMethods} />
            {editor.roleSetup?.kind === "unavailable" ? (
              // The role method cannot work here: say so instead of a form that would fail.
              <AwsRoleSetup setup={editor.roleSetup} />
            ) : (
              <ConnectionEditor
                key={`${chosen}-${methodId}`}
                mode="create"
                kind={chosen}
                methodId={methodId}
                choices={editor.choices}
                roleSetup={editor.roleSetup}
                actionData={actionData}
                cancelTo={connectionPages.index}
              />
            )}
          </Stack>
        </Paper>
      ) : (
        <Text size="sm">Choose what to connect.</Text>
      )}
    </Stack>
  );
}
