import { DAY_MS, floorToDay, HOUR_MS, monthStartOf } from "./accrual";

/**
 * The month's end, forecast (contract FORECAST_METHOD): month to date plus the average daily cost of the last 7 full
 * days times the days left after `accruedUntil`. An organization younger than 7 days averages the full days it has;
 * one younger than a day extrapolates today's accrued hours.
 */
export function forecastMonthEnd({
  accruedUntil,
  monthToDate,
  lastFullDays,
  fullDays,
  today,
}: {
  /** Usage is accrued up to here. */
  accruedUntil: Date;
  monthToDate: number;
  /** The cost of the full days counted (at most 7, before today), and how many there are. */
  lastFullDays: number;
  fullDays: number;
  /** What today accrued so far. */
  today: number;
}): number {
  const nextMonth = monthStartOf(new Date(monthStartOf(accruedUntil).getTime() + 32 * DAY_MS));
  const daysLeft = (nextMonth.getTime() - accruedUntil.getTime()) / DAY_MS;
  const hoursToday = (accruedUntil.getTime() - floorToDay(accruedUntil).getTime()) / HOUR_MS;
  const daily = fullDays > 0 ? lastFullDays / fullDays : hoursToday > 0 ? (today / hoursToday) * 24 : 0;
  return monthToDate + daily * daysLeft;
}
