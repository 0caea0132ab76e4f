import { Group } from "@mantine/core";
import { DateTimePicker } from "@mantine/dates";
import { useState } from "react";
import { DATE_RANGE } from "#contract/services";
import { toPickerValue, toIsoDateTime } from "~/features/services/details/log-query";

type Props = { from: string; to: string; errors: Record<string, string[]> };

/** The time range of the audit log's filters, bounded as SPEC §5's pickers are (1900-01-01 to 2099-12-31). */
export function TimeRangeFields({ from: initialFrom, to: initialTo, errors }: Props) {
  const [from, setFrom] = useState<string | null>(toPickerValue(toIsoDateTime(initialFrom)) || null);
  const [to, setTo] = useState<string | null>(toPickerValue(toIsoDateTime(initialTo)) || null);
  return (
    <Group align="flex-start" grow>
      <DateTimePicker
        label="From (UTC)"
        name="from"
        value={from}
        onChange={setFrom}
        minDate={DATE_RANGE.min}
        maxDate={DATE_RANGE.max}
        withSeconds
        clearable
        error={errors.from?.[0]}
      />
      <DateTimePicker
        label="To (UTC)"
        name="to"
        value={to}
        onChange={setTo}
        minDate={DATE_RANGE.min}
        maxDate={DATE_RANGE.max}
        withSeconds
        clearable
        error={errors.to?.[0]}
      />
    </Group>
  );
}
