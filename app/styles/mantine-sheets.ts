// Mantine's style sheets beyond what every page links (root: mantine-root.css), as `links()` entries for the routes
// whose components need them; the first-visit check fails when a page misses one (decision 064).
import mantineForms from "./mantine-forms.css?url";
import mantineShell from "./mantine-shell.css?url";

export const mantineShellSheet = { rel: "stylesheet", href: mantineShell } as const;
export const mantineFormsSheet = { rel: "stylesheet", href: mantineForms } as const;
