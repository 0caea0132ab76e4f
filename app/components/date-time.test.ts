import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMonth } from "./date-time";

describe("the app's one date and time format", () => {
  it("writes a moment in UTC, saying so, to the minute", () => {
    expect(formatDateTime("2025-01-31T08:30:12.345Z")).toBe("2025-01-31 08:30 UTC");
    expect(formatDateTime("2025-01-31T23:59:59+02:00")).toBe("2025-01-31 21:59 UTC");
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime("not a date")).toBe("not a date");
  });

  it("writes a day and a month in the same terms", () => {
    expect(formatDate("2025-01-31T23:30:00Z")).toBe("2025-01-31");
    expect(formatMonth("2026-11-27T10:00:00Z")).toBe("November 2026");
  });
});

/** Every source file of the app, tests aside. */
function sourcesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [full] : [];
  });
}

describe("date formatting", () => {
  it("happens in components/date-time.ts only", () => {
    const module = path.resolve("app/components/date-time.ts");
    const elsewhere = sourcesUnder(path.resolve("app")).filter(
      (file) =>
        file !== module &&
        /toLocale(?:Date|Time)?String\(|Intl\.DateTimeFormat/.test(readFileSync(file, "utf8")),
    );
    expect(elsewhere.map((file) => path.relative(process.cwd(), file))).toEqual([]);
  });
});
