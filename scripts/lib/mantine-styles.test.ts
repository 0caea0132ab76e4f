import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mantineSheetsOf, missingMantineSheets } from "./mantine-styles.mjs";

const directory = mkdtempSync(path.join(tmpdir(), "mantine-styles-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const write = (name: string, source: string) => {
  const file = path.join(directory, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, source);
  return file;
};

describe("mantineSheetsOf", () => {
  it("follows a component into the components Mantine builds it from: a Select needs Input and Combobox", () => {
    const page = write(
      "select-page.tsx",
      `import { Select } from "@mantine/core";\nexport default () => null;\n`,
    );
    const sheets = mantineSheetsOf(page);
    expect(sheets).toContain("Input");
    expect(sheets).toContain("Combobox");
    expect(sheets).not.toContain("Table");
  });

  it("counts what the page's own modules render, lazily loaded parts too, but no server-only module", () => {
    write("parts/table.tsx", `import { Table } from "@mantine/core";\n`);
    write("parts/tabs.tsx", `import { Tabs } from "@mantine/core";\n`);
    write("parts/mail.server.tsx", `import { Timeline } from "@mantine/core";\n`);
    const page = write(
      "page.tsx",
      [
        `import type { BadgeProps } from "@mantine/core";`,
        `import { Cell } from "./parts/table";`,
        `import { send } from "./parts/mail.server";`,
        `const Tabs = lazy(() => import("./parts/tabs"));`,
      ].join("\n"),
    );
    const sheets = mantineSheetsOf(page);
    expect(sheets).toContain("Table");
    expect(sheets).toContain("Tabs");
    expect(sheets).not.toContain("Timeline");
    expect(sheets).not.toContain("Badge");
  });
});

describe("missingMantineSheets", () => {
  it("names the sheets whose classes the page's style sheets lack", () => {
    const page = write("button-page.tsx", `import { Button, Badge } from "@mantine/core";\n`);
    const sheet = (name: string) => readFileSync(`node_modules/@mantine/core/styles/${name}.css`, "utf8");
    const css = ["Button", "Loader", "UnstyledButton"].map(sheet).join("\n");
    expect(missingMantineSheets(page, css)).toEqual(["Badge"]);
  });
});
