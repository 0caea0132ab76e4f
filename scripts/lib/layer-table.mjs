import { appendFileSync, existsSync, readFileSync } from "node:fs";

/**
 * Prints how long each layer of a test run took, as a table. Where LAYER_TIMINGS_FILE is set (by .ci/run), the
 * rows are also appended there as JSON lines, and rows already in it (the install) head the table.
 */
export function printLayerTable(layers) {
  const file = process.env.LAYER_TIMINGS_FILE;
  if (file) for (const entry of layers) appendFileSync(file, `${JSON.stringify(entry)}\n`);
  const rows = file && existsSync(file) ? readLayerTimings(file) : layers;
  console.info(formatLayerTable(rows));
}

export function readLayerTimings(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

export function formatLayerTable(rows) {
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  const lines = [
    ["layer", "tests", "seconds"],
    ...rows.map((row) => [
      row.name,
      row.tests === undefined ? "" : String(row.tests),
      row.seconds.toFixed(1),
    ]),
    ["total", "", total.toFixed(1)],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...lines.map((line) => line[column].length)));
  const format = (line) =>
    `| ${line[0].padEnd(widths[0])} | ${line[1].padStart(widths[1])} | ${line[2].padStart(widths[2])} |`;
  const rule = `|${"-".repeat(widths[0] + 2)}|${"-".repeat(widths[1] + 1)}:|${"-".repeat(widths[2] + 1)}:|`;
  return ["", format(lines[0]), rule, ...lines.slice(1).map(format)].join("\n");
}
