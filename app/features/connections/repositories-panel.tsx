import { Alert, Anchor, Group, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";

/** A part of the page that could not be loaded: the page still shows, with the provider's answer in its place. */
export type Loaded<T> = { kind: "ok"; value: T } | { kind: "error"; message: string };

type Repository = { name: string; description: string | null; updatedAt: string | null };
type Item = { name: string; detail: string | null; at: string | null };

/**
 * A registry's repositories (or a GitHub organization's), each a link (`?repository=`) to its tags (or branches),
 * listed live from the provider.
 */
export function RepositoriesPanel({
  repositories,
  chosen,
  listing,
}: {
  repositories: Loaded<Repository[]>;
  chosen: { repository: string; items: Loaded<Item[]> } | null;
  listing: "tags" | "branches";
}) {
  if (repositories.kind === "error") {
    return (
      <Alert color="red" title="The repositories could not be listed">
        {repositories.message}
      </Alert>
    );
  }
  if (!repositories.value.length) return <Text size="sm">No repositories.</Text>;
  return (
    <Stack gap="md">
      <Table striped aria-label="Repositories">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Repository</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {repositories.value.map((repository) => (
            <Table.Tr key={repository.name}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`?${new URLSearchParams({ repository: repository.name })}`}
                  preventScrollReset
                  aria-current={chosen?.repository === repository.name ? "true" : undefined}
                >
                  {repository.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{repository.description ?? ""}</Table.Td>
              <Table.Td>{repository.updatedAt?.slice(0, 10) ?? ""}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {chosen ? (
        <Stack
          gap="xs"
          role="region"
          aria-label={`${listing === "tags" ? "Tags" : "Branches"} of ${chosen.repository}`}
        >
          <Group justify="space-between">
            <Title order={4} size="h5">
              {listing === "tags" ? "Tags" : "Branches"} of {chosen.repository}
            </Title>
            <Anchor component={Link} to="?" size="sm" preventScrollReset>
              Close
            </Anchor>
          </Group>
          {chosen.items.kind === "error" ? (
            <Alert color="red" title={`The ${listing} could not be listed`}>
              {chosen.items.message}
            </Alert>
          ) : chosen.items.value.length ? (
            <Table aria-label={listing === "tags" ? "Tags" : "Branches"}>
              <Table.Tbody>
                {chosen.items.value.map((item) => (
                  <Table.Tr key={item.name}>
                    <Table.Td ff="monospace">{item.name}</Table.Td>
                    <Table.Td ff="monospace" c="dimmed">
                      {item.detail?.slice(0, 19) ?? ""}
                    </Table.Td>
                    <Table.Td>{item.at?.slice(0, 10) ?? ""}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm">No {listing}.</Text>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
