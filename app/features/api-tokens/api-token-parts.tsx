import {
  Alert,
  Badge,
  Button as MantineButton,
  Code,
  CopyButton,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Text,
} from "@mantine/core";
import { DEFAULT_API_TOKEN_DAYS, type ApiToken } from "#contract/api-tokens";
import { Button } from "~/components/button";
import { formatDateTime } from "~/components/date-time";
import { expiryChoices } from "./forms";

/** A token's value as an action answers it once, after creating or regenerating it. */
export type NewToken = { name: string; value: string; regenerated?: boolean };

/**
 * A token's value right after creation or regeneration, the only time it is shown (decision 070): with a copy
 * button, and a reminder that it cannot be shown again.
 */
export function NewTokenValue({ name, value, regenerated = false }: NewToken) {
  return (
    <Alert color="green" title={`API token ${name} ${regenerated ? "regenerated" : "created"}`} role="status">
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

/** The tokens of one holder: name, what it starts and ends with, expiry, last use, and its controls. */
export function ApiTokensTable({
  tokens,
  now,
  label,
  showPermissions = false,
  actions,
}: {
  tokens: ApiToken[];
  now: string;
  label: string;
  showPermissions?: boolean;
  actions: (token: ApiToken) => React.ReactNode;
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
              <Table.Td>{actions(token)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A token's controls: both ask first (the pages' dialogs), as each breaks whatever uses the current secret. */
export function TokenActions({
  token,
  onRegenerate,
  onRevoke,
}: {
  token: ApiToken;
  onRegenerate: () => void;
  onRevoke: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button variant="secondary" size="small" onClick={onRegenerate} aria-label={`Regenerate ${token.name}`}>
        Regenerate
      </Button>
      <Button variant="secondary" size="small" onClick={onRevoke} aria-label={`Revoke ${token.name}`}>
        Revoke
      </Button>
    </Group>
  );
}

/**
 * Asks before regenerating a token (decision 070): a new secret with the same name and permissions replaces the
 * current one at once. The expiry select and the confirm button belong to the page's form named by `formId`, so
 * the dialog is the only place the question is asked and the form the only way it is sent.
 */
export function RegenerateTokenDialog({
  token,
  formId,
  intent = "regenerate",
  onClose,
  busy,
}: {
  token: ApiToken | null;
  formId: string;
  /** The form's intent for this change. */
  intent?: string;
  onClose: () => void;
  busy: boolean;
}) {
  return (
    <Modal opened={token !== null} onClose={onClose} title="Regenerate API token" centered>
      <Stack gap="md">
        <Text>
          Regenerate the token {token?.name}? Its current secret is refused from its next request, so update
          whatever uses it with the new one, shown once.
        </Text>
        <NativeSelect
          form={formId}
          name="expiresInDays"
          label="New secret expires after"
          data={expiryChoices}
          defaultValue={String(DEFAULT_API_TOKEN_DAYS)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} name="intent" value={intent} variant="danger" loading={busy}>
            Regenerate
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
