const pickerValue = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/;

/**
 * A date picker's value ("2025-01-31 08:30:00", read as UTC) or an ISO 8601 date and time, as ISO 8601;
 * anything else is returned as it is for the schema to reject.
 */
export function toIsoDateTime(value: string): string {
  const trimmed = value.trim();
  const match = pickerValue.exec(trimmed);
  if (match) return `${match[1]}T${match[2]}${match[3] ?? ":00"}Z`;
  return trimmed;
}

/** An ISO date and time as the pickers' value ("2025-01-31 08:30:00", UTC), or "" when it is not one. */
export function toPickerValue(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return "";
  return date.toISOString().slice(0, 19).replace("T", " ");
}
