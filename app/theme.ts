import { createTheme, type MantineColorsTuple } from "@mantine/core";

/** Shades around the product's primary purple #6E27D5 (index 6). */
const purple: MantineColorsTuple = [
  "#f3ecfd",
  "#e1d3f8",
  "#c1a5f0",
  "#9f74e8",
  "#834be1",
  "#7433dc",
  "#6e27d5",
  "#5c1dbd",
  "#5119a9",
  "#451395",
];

/** SPEC §9: breakpoints, spacing unit 8 px, radius 4, Inter and Roboto Mono, the product palette. */
export const theme = createTheme({
  primaryColor: "purple",
  primaryShade: 6,
  colors: { purple },
  fontFamily: "Inter, system-ui, sans-serif",
  fontFamilyMonospace: "'Roboto Mono', ui-monospace, monospace",
  headings: { fontFamily: "Inter, system-ui, sans-serif" },
  fontSizes: { xs: "12px", sm: "14px", md: "16px", lg: "18px", xl: "20px" },
  defaultRadius: 4,
  radius: { xs: "2px", sm: "4px", md: "4px", lg: "8px", xl: "16px" },
  spacing: { xs: "4px", sm: "8px", md: "16px", lg: "24px", xl: "32px" },
  breakpoints: { xs: "23.4375em", sm: "48em", md: "80em", lg: "90em", xl: "100em" },
  other: {
    success: "#00B88C",
    error: "#E91F04",
    warning: "#F39C12",
  },
});
