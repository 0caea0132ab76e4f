import { Badge, Text } from "@mantine/core";
import { connectionStatusLabels, type ConnectionCheck, type ConnectionStatus } from "#contract/connections";
import { agoLabel } from "./catalogue";

const statusColors: Record<ConnectionStatus, string> = {
  VERIFIED: "green",
  FAILING: "red",
  UNVERIFIED: "gray",
};

/** Verified, Failing or Unverified: what the last check of the credentials said. */
export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light" data-testid="connection-status">
      {connectionStatusLabels[status]}
    </Badge>
  );
}

/** When the credentials were last checked and with what result, relative to `now` (the loader's clock). */
export function LastCheck({ check, now }: { check: ConnectionCheck | null; now: Date }) {
  if (!check) {
    return (
      <Text size="sm" c="dimmed">
        Never checked
      </Text>
    );
  }
  return (
    <Text size="sm" title={`${check.at}: ${check.message}`}>
      {agoLabel(check.at, now)} · {check.ok ? "OK" : `Failed: ${check.message}`}
    </Text>
  );
}
