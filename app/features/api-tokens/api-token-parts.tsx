import {
  Alert,
  Badge,
  Button as MantineButton,
  Code,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
} from "@mantine/core";
import type { ApiToken } from "#contract/api-tokens";
import { formatDateTime } from "~/components/date-time";

/**
 * A token's value right after creation, the only time it is shown (decision 070): with a copy button, and a
 * reminder that it cannot be shown again.
 */
export function NewTokenValue({ name, value }: { name: string; value: string }) {
  return (
    <Alert color="green" title={`API token ${name} created`} role="status">
      <Stack gap="xs">
        <Text size="sm">Copy it now: it is not stored and will not be shown again.</Text>
        <Group gap="sm" wrap="nowrap">
          <Code data-testid="new-token-value" style={{ wordBreak: "break-all" }}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <MantineButton size="xs" variant="light" onClick={copy}>
                {copied ? "Copied" : "Copy"}
              </MantineButton>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Whether the token has expired at `now` (the page's render time, from the loader). */
function expired(token: ApiToken, now: string): boolean {
  return Date.parse(token.expiresAt) <= Date.parse(now);
}

/** The tokens of one holder: name, what it starts and ends with, expiry, last use, and a revoke control. */
export function ApiTokensTable({
  tokens,
  now,
  label,
  showPermissions = false,
  revoke,
}: {
  tokens: ApiToken[];
  now: string;
  label: string;
  showPermissions?: boolean;
  revoke: (token: ApiToken) => React.ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Token</Table.Th>
            {showPermissions ? <Table.Th>Permissions</Table.Th> : null}
            <Table.Th>Expires (UTC)</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Td>{token.name}</Table.Td>
              <Table.Td>
                <Code>{token.hint}</Code>
              </Table.Td>
              {showPermissions ? (
                <Table.Td>{token.permissions ? token.permissions.join(", ") : "All of yours"}</Table.Td>
              ) : null}
              <Table.Td>
                {expired(token, now) ? (
                  <Badge color="red" variant="light">
                    Expired {formatDateTime(token.expiresAt)}
                  </Badge>
                ) : (
                  formatDateTime(token.expiresAt)
                )}
              </Table.Td>
              <Table.Td>
                {token.lastUsedAt ? (
                  <>
                    {formatDateTime(token.lastUsedAt)}
                    {token.lastUsedAddress ? (
                      <Text size="xs" c="dimmed">
                        from {token.lastUsedAddress}
                      </Text>
                    ) : null}
                  </>
                ) : (
                  "Never"
                )}
              </Table.Td>
              <Table.Td>{revoke(token)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
