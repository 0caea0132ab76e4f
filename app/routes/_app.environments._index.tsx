import { Anchor, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StageBadge } from "~/features/environments/stage-badge";
import { listEnvironments } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { errorCodes } from "#contract/errors";

export const meta: MetaFunction = () => [{ title: "Environments · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const environments = await listEnvironments(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  if (environments.length === 0) throw redirect("/environments/create", { headers });
  return data({ environments, organizationName: organization.displayName }, { headers });
}

export default function Environments() {
  const { environments, organizationName } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>Environments</Title>
          <Text c="dimmed" size="sm">
            {organizationName}
          </Text>
        </Stack>
        <Button component={Link} to="/environments/create">
          Create environment
        </Button>
      </Group>
      <Table striped highlightOnHover aria-label="Environments">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Stage</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {environments.map((environment) => (
            <Table.Tr key={environment.id}>
              <Table.Td>
                <Anchor component={Link} to={`/env/${encodeURIComponent(environment.name)}`}>
                  {environment.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StageBadge stage={environment.cloningStage} />
              </Table.Td>
              <Table.Td>{new Date(environment.createdAt).toLocaleDateString("en")}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
