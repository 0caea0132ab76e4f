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
import { connectionKindDefinitions, connectionKindFromSlug, connectionPages } from "#contract/connections";
import { errorCodes } from "#contract/errors";
import { ConnectionEditor } from "~/features/connections/connection-editor";
import { methodOrDefault, type SaveConnectionResult } from "~/features/connections/connection-form";
import { loadEditorData } from "~/features/connections/editor-data.server";
import { MethodChoice } from "~/features/connections/kind-choice";
import { saveConnectionAction } from "~/features/connections/save-connection.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { getConnection } from "~/platform/connections.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `Edit ${loaded?.connection.name ?? "connection"} · Connections · Cloud Console` },
];

/** The connection's form, prefilled; its secret fields start empty, and empty keeps the stored value. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, headers } = client;
  const kind = connectionKindFromSlug(params.kind ?? "");
  if (!kind) throw redirect("/404", { headers });
  const [connection] = await Promise.all([
    getConnection(api, tenantId, params.id ?? "").catch((error: unknown) =>
      throwRouteError(error, errorCodes.resourceListFetch, headers),
    ),
    requirePermission(request, client, "connections.manage"),
  ]);
  if (connection.kind !== kind)
    throw redirect(connectionPages.edit(connection.kind, connection.id), { headers });
  const asked = new URL(request.url).searchParams.get("method");
  const methodId = methodOrDefault(kind, asked ?? connection.method);
  const editor = await loadEditorData(api, tenantId, kind, methodId);
  const { id, name, method, fields, secrets } = connection;
  return data({ connection: { id, kind, name, method, fields, secrets }, methodId, editor }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return saveConnectionAction(request, { connectionId: params.id ?? "" });
}

export default function EditConnectionPage() {
  const { connection, methodId, editor } = useLoaderData<typeof loader>();
  const actionData = useActionData<SaveConnectionResult>();
  const viewPage = connectionPages.view(connection.kind, connection.id);
  return (
    <Stack gap="md" maw={880}>
      <Anchor component={Link} to={viewPage} size="sm">
        ← {connection.name}
      </Anchor>
      <Stack gap={0}>
        <Title order={2}>Edit {connection.name}</Title>
        <Text c="dimmed" size="sm">
          {connectionKindDefinitions[connection.kind].label}. Saving checks the credentials with the provider
          again.
        </Text>
      </Stack>
      <Paper withBorder p="lg">
        <Stack gap="md">
          <MethodChoice kind={connection.kind} methodId={methodId} unavailable={editor.unavailableMethods} />
          <ConnectionEditor
            key={methodId}
            mode="edit"
            kind={connection.kind}
            methodId={methodId}
            connection={connection}
            choices={editor.choices}
            roleSetup={editor.roleSetup}
            actionData={actionData}
            cancelTo={viewPage}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
