import { Group } from "@mantine/core";
import { DatePickerInput, DateTimePicker } from "@mantine/dates";
import { useState } from "react";
import { DATE_RANGE } from "#contract/service-catalogue";
import { toIsoDateTime, toPickerValue } from "./utc-date-time";

/** Whole days ("2025-01-31") or a date and time to the second ("2025-01-31 08:30:00"). */
export type DateRangePrecision = "day" | "second";

export type DateRangeFieldsProps = {
  /** The `from` and `to` fields' values as they came in the page's query (a picker's value, or ISO 8601). */
  from: string;
  to: string;
  errors: Record<string, string[]>;
  precision: DateRangePrecision;
  /** What the ends are called; each label says "(UTC)" after it. */
  labels?: { from: string; to: string };
};

/**
 * A range's two ends, the fields `from` and `to` of a GET form, in UTC: a picker's value carries no time zone and
 * is read as UTC, and an ISO value from the query shows as its UTC time, whatever the browser's time zone. Bounded
 * as SPEC §5's pickers are (1900-01-01 to 2099-12-31).
 */
export function DateRangeFields({
  from,
  to,
  errors,
  precision,
  labels = { from: "From", to: "To" },
}: DateRangeFieldsProps) {
  return (
    <Group align="flex-start" grow>
      <UtcPicker
        name="from"
        label={labels.from}
        initial={from}
        error={errors.from?.[0]}
        precision={precision}
      />
      <UtcPicker name="to" label={labels.to} initial={to} error={errors.to?.[0]} precision={precision} />
    </Group>
  );
}

function UtcPicker({
  name,
  label,
  initial,
  error,
  precision,
}: {
  name: string;
  label: string;
  initial: string;
  error: string | undefined;
  precision: DateRangePrecision;
}) {
  const [value, setValue] = useState<string | null>(
    (precision === "second" ? toPickerValue(toIsoDateTime(initial)) : initial) || null,
  );
  const shared = {
    label: `${label} (UTC)`,
    name,
    value,
    onChange: setValue,
    minDate: DATE_RANGE.min,
    maxDate: DATE_RANGE.max,
    clearable: true,
    error,
  };
  return precision === "second" ? (
    <DateTimePicker {...shared} withSeconds />
  ) : (
    <DatePickerInput {...shared} valueFormat="YYYY-MM-DD" />
  );
}
