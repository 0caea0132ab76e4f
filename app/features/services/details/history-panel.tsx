import { Anchor, Badge, Group, Paper, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import type { HistoryEntry, Resource } from "#contract/services";
import { Button } from "~/components/button";
import { StageBadge } from "~/features/environments/stage-badge";
import { servicePagePaths } from "../paths";
import { DiffTable } from "./diff-table";
import { formatDuration } from "./format";
import { formatDateTime } from "~/components/date-time";

/** The logs of one history entry: its pods over its time (to now while it runs). */
export function historyLogsLink(environmentName: string, serviceId: string, entry: HistoryEntry): string {
  return servicePagePaths.details(environmentName, serviceId, {
    tab: "logs",
    logType: "SEARCH",
    podNames: entry.podNames,
    timestamps: entry.finishedAt ? [entry.at, entry.finishedAt] : [entry.at],
  });
}

// Loaded when first opened: most visitors of a details page never roll back (first-visit bytes, decision 014).
const RollbackDialog = lazy(() =>
  import("~/features/applications/rollback-dialog").then((module) => ({ default: module.RollbackDialog })),
);

/** An application's deployments that completed are versions; the newest of them is the one running. */
function versionsOf(service: Resource) {
  if (service.serviceType !== "application") return { deployed: new Set<string>(), running: null };
  const deployed = service.history.filter(
    (entry) => entry.action !== "Save" && entry.outcome === "STAGE_COMPLETED",
  );
  return { deployed: new Set(deployed.map((entry) => entry.id)), running: deployed[0]?.id ?? null };
}

export function HistoryPanel({ environmentName, service }: { environmentName: string; service: Resource }) {
  const [rollbackPath, setRollbackPath] = useState<string | null>(null);
  if (!service.history.length) {
    return <Text c="dimmed">Nothing has happened to this service yet.</Text>;
  }
  const versions = versionsOf(service);
  return (
    <>
      {rollbackPath ? (
        <Suspense fallback={null}>
          <RollbackDialog path={rollbackPath} onClose={() => setRollbackPath(null)} />
        </Suspense>
      ) : null}
      <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: "none" }} aria-label="History">
        {service.history.map((entry) => {
          const duration = formatDuration(entry.at, entry.finishedAt);
          return (
            <Paper key={entry.id} withBorder p="md" component="li" data-testid="history-entry">
              <Stack gap="xs">
                <Group justify="space-between">
                  <Group gap="sm">
                    <Badge variant="outline">{entry.action}</Badge>
                    <Text size="sm">{entry.actor}</Text>
                    <Text size="sm" c="dimmed">
                      {formatDateTime(entry.at)}
                    </Text>
                  </Group>
                  <Group gap="sm">
                    {entry.outcome ? (
                      <StageBadge stage={entry.outcome} />
                    ) : entry.action === "Save" ? null : (
                      <Badge variant="light" color="blue">
                        Running
                      </Badge>
                    )}
                    {duration ? (
                      <Text size="sm" c="dimmed">
                        {duration}
                      </Text>
                    ) : null}
                  </Group>
                </Group>
                {entry.message ? (
                  // What the deployment was for (a pushed commit and its message) or what the cloud said of it.
                  <Text size="sm" style={{ whiteSpace: "pre-line" }} data-testid="history-message">
                    {entry.message}
                  </Text>
                ) : null}
                {entry.podNames.length ? (
                  <Text size="sm" ff="monospace">
                    Pods: {entry.podNames.join(", ")}
                  </Text>
                ) : null}
                <DiffTable
                  diff={entry.diff}
                  label={`Changes of ${entry.action} at ${formatDateTime(entry.at)}`}
                />
                <Group gap="md">
                  {entry.action === "Save" ? null : (
                    <Anchor
                      component={Link}
                      to={historyLogsLink(environmentName, service.id, entry)}
                      size="sm"
                    >
                      View logs
                    </Anchor>
                  )}
                  {entry.id === versions.running ? (
                    <Badge variant="light" color="teal">
                      Running version
                    </Badge>
                  ) : versions.deployed.has(entry.id) ? (
                    <Button
                      size="small"
                      variant="secondary"
                      onClick={() =>
                        setRollbackPath(servicePagePaths.version(environmentName, service.id, entry.id))
                      }
                    >
                      Roll back to this version
                    </Button>
                  ) : null}
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </>
  );
}
