import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  connectionCategoryDescriptions,
  connectionCategoryTitles,
  connectionKindDefinitions,
  connectionPages,
} from "#contract/connections";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { offeredCategories } from "~/features/connections/catalogue";
import { ConnectionStatusBadge } from "~/features/connections/connection-status";
import { defaultFeatureFlags } from "~/features/feature-flags/flag-values";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import { useCan } from "~/features/permissions/permissions";
import { listConnections } from "~/platform/connections.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "Connections · Settings · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const [connections, flags] = await Promise.all([
    listConnections(api, tenantId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.resourceListFetch, headers),
    ),
    // Without the flags the catalogue's defaults apply: the flagged kinds are not offered.
    getFeatureFlags(api, { tenantId }).catch(() => defaultFeatureFlags()),
  ]);
  const categories = offeredCategories(flags).map((category) => ({
    category,
    connections: connections
      .filter((connection) => connection.category === category)
      .map(({ id, kind, name, status }) => ({ id, kind, name, status })),
  }));
  return data({ categories, total: connections.length }, { headers });
}

/** One card per category the organization can connect: what is connected, and Connect. */
export default function ConnectionsPage() {
  const { categories, total } = useLoaderData<typeof loader>();
  const canManage = useCan("connections.manage");
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>Connections</Title>
          <Text c="dimmed" size="sm">
            Cloud accounts and tools, checked with their provider when saved. Secrets are sealed and never
            shown again.
          </Text>
        </Stack>
        <Anchor component={Link} to={connectionPages.list}>
          All connections ({total})
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {categories.map(({ category, connections }) => (
          <Card key={category} withBorder role="region" aria-label={connectionCategoryTitles[category]}>
            <Stack gap="sm" h="100%">
              <Stack gap={2}>
                <Title order={3} size="h4">
                  {connectionCategoryTitles[category]}
                </Title>
                <Text size="sm" c="dimmed">
                  {connectionCategoryDescriptions[category]}
                </Text>
              </Stack>
              {connections.length ? (
                <Stack gap={6}>
                  {connections.map((connection) => (
                    <Group key={connection.id} justify="space-between" wrap="nowrap">
                      <Stack gap={0}>
                        <Anchor component={Link} to={connectionPages.view(connection.kind, connection.id)}>
                          {connection.name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {connectionKindDefinitions[connection.kind].label}
                        </Text>
                      </Stack>
                      <ConnectionStatusBadge status={connection.status} />
                    </Group>
                  ))}
                </Stack>
              ) : (
                <Text size="sm">Nothing connected yet.</Text>
              )}
              <Group mt="auto">
                <Restricted allowed={canManage}>
                  <Button
                    component={Link}
                    to={connectionPages.create(category)}
                    variant="secondary"
                    aria-label={`Connect ${connectionCategoryTitles[category]}`}
                  >
                    Connect
                  </Button>
                </Restricted>
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
