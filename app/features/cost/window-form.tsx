import { Alert, Button, Group, Select, Stack } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { costWindowLabels, costWindows, type CostWindow } from "#contract/cost-windows";
import { DateRangeFields } from "~/components/lazy-date-range-fields";
import type { CostSearchValues } from "./cost-search";

const windowOptions = costWindows.map((window) => ({ value: window, label: costWindowLabels[window] }));

/**
 * The window and environment of a cost page: a GET form, so the address says what is shown and a link or a reload
 * shows it again. The custom range's pickers show once "Custom range" is chosen.
 */
export function WindowForm({
  values,
  fieldErrors,
  environments,
  keep = {},
}: {
  values: CostSearchValues;
  fieldErrors: Record<string, string[]>;
  environments: { id: string; name: string }[];
  /** Further query values the page keeps across a change of window (a drill-down's place). */
  keep?: Record<string, string>;
}) {
  const [window, setWindow] = useState<CostWindow>(values.window);
  return (
    <Form method="get" aria-label="Cost window">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Window"
            name="window"
            data={windowOptions}
            value={window}
            onChange={(value) => setWindow((value as CostWindow | null) ?? "30d")}
            allowDeselect={false}
            error={fieldErrors.window?.[0]}
            w={200}
          />
          <Select
            label="Environment"
            name="environmentId"
            data={environments.map(({ id, name }) => ({ value: id, label: name }))}
            defaultValue={values.environmentId || null}
            placeholder="Every environment"
            clearable
            error={fieldErrors.environmentId?.[0]}
            w={220}
          />
          <Button type="submit" variant="light">
            Show
          </Button>
        </Group>
        {window === "custom" ? (
          <DateRangeFields from={values.from} to={values.to} errors={fieldErrors} precision="day" />
        ) : null}
        {Object.keys(fieldErrors).length ? (
          <Alert color="red" title="Cannot show this window" role="alert">
            Correct the highlighted fields to see the costs.
          </Alert>
        ) : null}
      </Stack>
    </Form>
  );
}
