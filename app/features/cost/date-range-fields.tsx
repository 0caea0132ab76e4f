import { Group } from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import { useState } from "react";
import { COST_DATE_MAX, COST_DATE_MIN } from "#contract/cost";

type Props = { from: string; to: string; errors: Record<string, string[]> };

/** A custom window's first and last day (UTC, inclusive), bounded as SPEC §5's pickers are. */
export function DateRangeFields({ from: initialFrom, to: initialTo, errors }: Props) {
  const [from, setFrom] = useState<string | null>(initialFrom || null);
  const [to, setTo] = useState<string | null>(initialTo || null);
  return (
    <Group align="flex-start" grow>
      <DatePickerInput
        label="From (UTC)"
        name="from"
        value={from}
        onChange={setFrom}
        valueFormat="YYYY-MM-DD"
        minDate={COST_DATE_MIN}
        maxDate={COST_DATE_MAX}
        clearable
        error={errors.from?.[0]}
      />
      <DatePickerInput
        label="To (UTC)"
        name="to"
        value={to}
        onChange={setTo}
        valueFormat="YYYY-MM-DD"
        minDate={COST_DATE_MIN}
        maxDate={COST_DATE_MAX}
        clearable
        error={errors.to?.[0]}
      />
    </Group>
  );
}
