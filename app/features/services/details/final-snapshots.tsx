import { Code, Paper, Stack, Text, Title } from "@mantine/core";
import type { Snapshot } from "#contract/snapshots";
import { formatDateTime } from "~/components/date-time";

type Loaded<T> = { kind: "ok"; value: T } | { kind: "error"; message: string };

/**
 * The final snapshots the platform kept of a database or cache (issue 24): one is taken whenever a change replaces
 * it or its service is deleted, so that no data goes silently. Each with the AWS CLI command that restores it.
 */
export function FinalSnapshots({ snapshots }: { snapshots: Loaded<Snapshot[]> }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="final-snapshots" mt="lg">
      <Title order={3} size="h4" id="final-snapshots">
        Final snapshots
      </Title>
      {snapshots.kind === "error" ? (
        <Text c="red" size="sm">
          {snapshots.message}
        </Text>
      ) : snapshots.value.length === 0 ? (
        <Text c="dimmed" size="sm">
          No final snapshot yet: one is taken before a change replaces this service and when it is deleted.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {snapshots.value.map((snapshot) => (
            <Paper key={snapshot.arn} withBorder p="sm" component="li">
              <Stack gap={4}>
                <Text fw={600} ff="monospace" size="sm">
                  {snapshot.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {[
                    snapshot.createdAt ? formatDateTime(snapshot.createdAt) : null,
                    snapshot.engine,
                    snapshot.size,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </Text>
                <Text size="sm">
                  Restore it into a new {snapshot.kind === "rds" ? "DB instance" : "replication group"} (add
                  its subnet group and security groups to place it in the environment&apos;s network):
                </Text>
                <Code block>{snapshot.restoreCommand}</Code>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
