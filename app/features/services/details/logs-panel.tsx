import { Alert, Group, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import { Form, useFetcher, useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import type { LogLine, Resource } from "#contract/services";
import { Button } from "~/components/button";
import { DateRangeFields } from "~/components/date-range-fields";
import { usePolling } from "~/hooks/use-polling";
import { servicePagePaths } from "../paths";
import { SEARCH_LOGS_LOG_LIMIT, TAIL_LOGS_FETCH_INTERVAL_MS, TAIL_LOGS_LOG_LIMIT } from "./dynamic-settings";
import { appendTail, logLevelOptions, tailCursor, type LogSearch, type LogsFeed } from "./log-query";
import { LogViewer } from "./log-viewer";
import { serviceDetailsPaths } from "./paths";
import type { LoadedPart } from "./telemetry";
import type { DetailsView } from "./view";

type LogList = { logs: LogLine[]; podNames: string[] };
export type LogsData =
  | { logType: "LIVE"; tail: LoadedPart<LogList> }
  | { logType: "SEARCH"; search: LogSearch; results: LoadedPart<LogList> | null; podNames: string[] };

export function LogsPanel({
  environmentName,
  service,
  view,
  logs,
}: {
  environmentName: string;
  service: Resource;
  view: DetailsView;
  logs: LogsData;
}) {
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label="Log view"
        w="fit-content"
        value={logs.logType}
        data={[
          { value: "LIVE", label: "Live" },
          { value: "SEARCH", label: "Search" },
        ]}
        onChange={(value) =>
          navigate(
            servicePagePaths.details(environmentName, service.id, {
              tab: "logs",
              logType: value === "SEARCH" ? "SEARCH" : "LIVE",
              podNames: view.podNames,
            }),
            { preventScrollReset: true },
          )
        }
      />
      {logs.logType === "LIVE" ? (
        <LiveLogs
          environmentName={environmentName}
          serviceId={service.id}
          initial={logs.tail}
          preselectedPods={view.podNames}
        />
      ) : (
        <SearchLogs logs={logs} />
      )}
    </Stack>
  );
}

/** The live tail: the last lines, then what comes since, every tail-logs interval until paused. */
function LiveLogs({
  environmentName,
  serviceId,
  initial,
  preselectedPods,
}: {
  environmentName: string;
  serviceId: string;
  initial: LoadedPart<LogList>;
  preselectedPods: string[];
}) {
  const fetcher = useFetcher<LogsFeed>();
  const [lines, setLines] = useState<LogLine[]>(() =>
    initial.kind === "ok" ? appendTail([], initial.value.logs, TAIL_LOGS_LOG_LIMIT) : [],
  );
  const [pods, setPods] = useState<string[]>(initial.kind === "ok" ? initial.value.podNames : []);
  const [paused, setPaused] = useState(false);
  // Whether the box sticks to the newest line: until the user scrolls up, and again once they jump back down.
  const [following, setFollowing] = useState(true);
  const [pod, setPod] = useState<string | null>(
    preselectedPods.length === 1 ? (preselectedPods[0] ?? null) : null,
  );
  const [error, setError] = useState<string | null>(initial.kind === "error" ? initial.message : null);

  usePolling(
    () => {
      if (fetcher.state === "idle")
        fetcher.load(serviceDetailsPaths.logsFeed(environmentName, serviceId, tailCursor(lines)));
    },
    { enabled: !paused, intervalMs: TAIL_LOGS_FETCH_INTERVAL_MS, leading: false },
  );

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle") return;
    if (answer.kind === "error") {
      setError(answer.message);
      return;
    }
    setError(null);
    setLines((held) => appendTail(held, answer.logs, TAIL_LOGS_LOG_LIMIT));
    setPods((known) => [...new Set([...known, ...answer.podNames])]);
  }, [fetcher.data, fetcher.state]);

  const shown = useMemo(() => (pod ? lines.filter((line) => line.podName === pod) : lines), [lines, pod]);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Select
          label="Pod"
          placeholder="All pods"
          data={pods}
          value={pod}
          onChange={setPod}
          clearable
          w={280}
        />
        <Group gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {paused ? "Paused" : following ? "Following" : "Scrolled up"} · {shown.length} lines
          </Text>
          {following ? null : (
            <Button variant="secondary" onClick={() => setFollowing(true)}>
              Jump to latest
            </Button>
          )}
          <Button variant="secondary" onClick={() => setPaused((value) => !value)}>
            {paused ? "Resume" : "Pause"}
          </Button>
        </Group>
      </Group>
      {error ? (
        <Alert color="red" title="Logs unavailable">
          {error}
        </Alert>
      ) : null}
      <LogViewer
        lines={shown}
        label="Live logs"
        empty="No log lines yet."
        follow={{ following, onFollowChange: setFollowing }}
      />
    </Stack>
  );
}

/** The log search: a GET form whose fields become the page's query; the loader ran the search. */
function SearchLogs({ logs }: { logs: Extract<LogsData, { logType: "SEARCH" }> }) {
  const { search, results } = logs;
  const { values } = search;
  const errors = search.kind === "invalid" ? search.fieldErrors : {};
  const podOptions = [...new Set([...logs.podNames, ...values.podNames])];
  return (
    <Stack gap="md">
      <Form method="get" preventScrollReset aria-label="Search logs">
        <input type="hidden" name="tab" value="logs" />
        <input type="hidden" name="logType" value="SEARCH" />
        <Stack gap="sm">
          <Group align="flex-start" grow>
            <TextInput label="Text" name="text" defaultValue={values.text} error={errors.text?.[0]} />
            <Select
              label="Level"
              name="level"
              data={logLevelOptions}
              defaultValue={values.level || null}
              placeholder="Any level"
              clearable
              error={errors.level?.[0]}
            />
            <MultiSelect
              label="Pods"
              name="podNames"
              data={podOptions}
              defaultValue={values.podNames}
              placeholder={values.podNames.length ? undefined : "All pods"}
              clearable
              error={errors.podNames?.[0]}
            />
          </Group>
          <DateRangeFields
            from={values.from}
            to={values.to}
            errors={errors}
            precision="second"
            labels={{ from: "Start", to: "End" }}
          />
          <Group justify="flex-end">
            <Button type="submit">Search</Button>
          </Group>
        </Stack>
      </Form>
      {search.kind === "invalid" ? (
        <Alert color="red" title="Cannot search" role="alert">
          Correct the highlighted fields to search.
        </Alert>
      ) : results?.kind === "error" ? (
        <Alert color="red" title="Logs unavailable">
          {results.message}
        </Alert>
      ) : results ? (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {results.value.logs.length} result{results.value.logs.length === 1 ? "" : "s"}, newest first
            {results.value.logs.length >= SEARCH_LOGS_LOG_LIMIT
              ? ` (the first ${SEARCH_LOGS_LOG_LIMIT})`
              : ""}
          </Text>
          <LogViewer
            lines={results.value.logs}
            label="Search results"
            empty="No log lines match this search."
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
