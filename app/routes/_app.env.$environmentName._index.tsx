import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { StageBadge } from "~/features/environments/stage-badge";
import type { loader as environmentLoader } from "./_app.env.$environmentName";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.environmentName ?? "Environment"} · Cloud Console` },
];

/** The environment's overview: what it is and where it stands. */
export default function EnvironmentOverview() {
  const scope = useRouteLoaderData<typeof environmentLoader>("routes/_app.env.$environmentName");
  if (!scope) return null;
  const { environment } = scope;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} data-testid="environment-title">
          {environment.name}
        </Title>
        <Button component={Link} to="/environments" variant="default">
          All environments
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Stage
          </Text>
          <StageBadge stage={environment.cloningStage} mt="xs" />
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Created
          </Text>
          <Text fw={600} mt="xs">
            {new Date(environment.createdAt).toLocaleDateString("en", { dateStyle: "medium" })}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Identifier
          </Text>
          <Text ff="monospace" size="sm" mt="xs">
            {environment.id}
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
