import { Anchor, Badge, Table, Text } from "@mantine/core";

/**
 * Mantine's class names, for elements written by hand where a list renders many of them (a table's rows, a
 * badge in each row): a Mantine component costs about 20 times a plain element to render on the server, and
 * these classes give the same look from Mantine's style sheet. The static `mantine-*` names (for styling from
 * outside) are left out: nothing here uses them, and rows repeat them. What the components' props would have
 * written as inline styles is in styles/global.css.
 */
export const mantineClasses = {
  tr: Table.classes.tr,
  td: Table.classes.td,
  text: `mantine-focus-auto ${Text.classes.root}`,
  anchor: `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root}`,
  badge: Badge.classes.root,
  badgeLabel: Badge.classes.label,
};

/** The data attributes Table gives its rows with `striped` and `highlightOnHover` (and row borders, the default). */
export const stripedHoverRowAttributes = {
  "data-with-row-border": "true",
  "data-striped": "odd",
  "data-hover": "true",
} as const;
