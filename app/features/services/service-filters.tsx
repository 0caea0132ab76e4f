import { Group, NativeSelect, TextInput } from "@mantine/core";
import { Form, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { serviceTypeLabels, type ServiceType } from "#contract/service-catalogue";
import { stages } from "#contract/stages";
import { Button } from "~/components/button";
import { stageLabel } from "~/features/environments/stage-badge";
import type { ParsedServiceListFilters } from "./list-filters";

/** The pause after the last keystroke before the search runs. */
const SEARCH_DEBOUNCE_MS = 400;

/**
 * A list's filters (type, stage, name) as a GET form: without JavaScript "Search" applies it; with it, a choice
 * applies at once and typing applies after a pause. Any change starts again at page 1.
 */
export function ServiceFilters({
  action,
  filters,
  serviceTypes,
  label,
}: {
  /** The list page's address without a query. */
  action: string;
  filters: ParsedServiceListFilters;
  /** The types the list may hold. */
  serviceTypes: readonly ServiceType[];
  /** The search landmark's name, such as "Filter services". */
  label: string;
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const apply = (delayMs: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, delayMs);
  };

  return (
    <Form ref={formRef} method="get" action={action} role="search" aria-label={label}>
      <Group align="flex-end" gap="sm">
        <TextInput
          name="text"
          label="Search"
          placeholder="Service name"
          defaultValue={filters.text ?? ""}
          error={filters.errors?.text[0]}
          onChange={() => apply(SEARCH_DEBOUNCE_MS)}
          w={260}
          type="search"
          autoComplete="off"
        />
        <NativeSelect
          name="serviceType"
          label="Type"
          defaultValue={filters.serviceType ?? ""}
          onChange={() => apply(0)}
          data={[
            { value: "", label: "All types" },
            ...serviceTypes.map((type) => ({ value: type, label: serviceTypeLabels[type] })),
          ]}
        />
        <NativeSelect
          name="stage"
          label="Stage"
          defaultValue={filters.stage ?? ""}
          onChange={() => apply(0)}
          data={[
            { value: "", label: "All stages" },
            ...stages.map((stage) => ({ value: stage, label: stageLabel(stage) })),
          ]}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Group>
    </Form>
  );
}
