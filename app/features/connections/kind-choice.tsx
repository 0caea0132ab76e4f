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
export function MethodChoice({
  kind,
  methodId,
  unavailable = {},
}: {
  kind: ConnectionKind;
  methodId: string;
  /** Methods that cannot work on this platform: offered last, marked, and saying why once opened. */
  unavailable?: Record<string, string>;
}) {
  const { methods } = connectionKindDefinitions[kind];
  if (methods.length < 2) return null;
  const usable = methods.filter((method) => !(method.id in unavailable));
  const offered = [...usable, ...methods.filter((method) => method.id in unavailable)];
  return (
    <Tabs value={methodId}>
      <Tabs.List aria-label="Methods">
        {offered.map((method) => (
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
            {method.id in unavailable
              ? `${method.label.replace(/ \(recommended\)$/, "")} (not set up)`
              : method.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
