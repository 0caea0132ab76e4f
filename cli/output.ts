/** Where a command writes: results to `out`, progress and errors to `err`. */
export type Output = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Progress that replaces itself on a terminal; each change on its own line when piped (CI logs). */
  progress: (line: string) => void;
  /** Ends a progress line on a terminal so what follows starts on a new one. */
  endProgress: () => void;
};

export type Streams = {
  stdout: { write: (text: string) => unknown; isTTY?: boolean };
  stderr: { write: (text: string) => unknown; isTTY?: boolean };
};

export function outputOf({ stdout, stderr }: Streams): Output {
  let last = "";
  let open = false;
  const endProgress = () => {
    if (open) stderr.write("\n");
    open = false;
  };
  return {
    out: (line) => {
      endProgress();
      stdout.write(`${line}\n`);
    },
    err: (line) => {
      endProgress();
      stderr.write(`${line}\n`);
    },
    progress: (line) => {
      if (line === last) return;
      last = line;
      if (stderr.isTTY) {
        stderr.write(`\r\x1b[2K${line}`);
        open = true;
      } else {
        stderr.write(`${line}\n`);
      }
    },
    endProgress,
  };
}

/** Rows as aligned columns under a header, for people; --json gives the platform's objects instead. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ");
  return [line(header), ...rows.map(line)];
}
