import { Card, SimpleGrid, Stack, Tabs, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { connectionKindDefinitions, connectionKindSlugs, type ConnectionKind } from "#contract/connections";

/** The kinds a create page offers, as links (`?kind=`), so the choice works without JavaScript. */
export function KindChoice({
  kinds,
  chosen,
}: {
  kinds: { kind: ConnectionKind; label: string; description: string }[];
  chosen: ConnectionKind | null;
}) {
  return (
    <Stack gap="xs">
      <Text fw={600}>Kind</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label="Kinds">
        {kinds.map((option) => {
          const selected = option.kind === chosen;
          return (
            <Card
              key={option.kind}
              component={Link}
              to={`?${new URLSearchParams({ kind: connectionKindSlugs[option.kind] })}`}
              withBorder
              role="listitem"
              aria-current={selected ? "true" : undefined}
              style={selected ? { borderColor: "var(--mantine-primary-color-filled)" } : undefined}
              preventScrollReset
            >
              <Text fw={600}>{option.label}</Text>
              <Text size="sm" c="dimmed">
                {option.description}
              </Text>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

/** The ways to authenticate a kind that has several, as links (`?method=`). */
export function MethodChoice({ kind, methodId }: { kind: ConnectionKind; methodId: string }) {
  const { methods } = connectionKindDefinitions[kind];
  if (methods.length < 2) return null;
  return (
    <Tabs value={methodId}>
      <Tabs.List aria-label="Methods">
        {methods.map((method) => (
          <Tabs.Tab
            key={method.id}
            value={method.id}
            renderRoot={(props) => (
              <Link
                {...props}
                to={`?${new URLSearchParams({ kind: connectionKindSlugs[kind], method: method.id })}`}
                preventScrollReset
              />
            )}
          >
            {method.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
