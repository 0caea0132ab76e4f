import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MenuProps,
  type VariantColorsResolver,
} from "@mantine/core";
import { MENU_MIN_WIDTH } from "~/layout";

/** SPEC §9 palette. */
export const palette = {
  primary: "#6E27D5",
  success: "#00B88C",
  error: "#E91F04",
  warning: "#F39C12",
} as const;

/** SPEC §9: every spacing is a multiple of this unit. */
export const SPACING_UNIT = 8;

/** SPEC §9: the html element's font size; the body text is 16 px (see styles/global.css). */
export const HTML_FONT_SIZE = 18;

/** `spacing(2)` → "16px": a length in multiples of the 8 px spacing unit. */
export function spacing(units: number): string {
  return `${units * SPACING_UNIT}px`;
}

function channel(hex: string, offset: number): number {
  return Number.parseInt(hex.slice(offset, offset + 2), 16);
}

function mix(hex: string, target: number, weight: number): string {
  const mixed = [1, 3, 5].map((offset) => {
    const value = Math.round(channel(hex, offset) * (1 - weight) + target * weight);
    return value.toString(16).padStart(2, "0");
  });
  return `#${mixed.join("")}`;
}

/**
 * Ten shades around `base`, which sits at index 6 (the theme's primaryShade): lighter ones mixed with
 * white, darker ones with black.
 */
export function shadesAround(base: string): MantineColorsTuple {
  const hex = base.toLowerCase();
  const lighter = [0.92, 0.8, 0.62, 0.44, 0.28, 0.12].map((weight) => mix(hex, 255, weight));
  const darker = [0.12, 0.24, 0.36].map((weight) => mix(hex, 0, weight));
  const [l0, l1, l2, l3, l4, l5] = lighter as [string, string, string, string, string, string];
  const [d7, d8, d9] = darker as [string, string, string];
  return [l0, l1, l2, l3, l4, l5, hex, d7, d8, d9];
}

const purple = shadesAround(palette.primary);
const success = shadesAround(palette.success);
const error = shadesAround(palette.error);
const warning = shadesAround(palette.warning);

/**
 * WCAG AA contrast (4.5:1 for text): the light variant (badges, alerts, light buttons) writes in shade 9 of its
 * colour instead of Mantine's shade 6, which is too pale on its own tinted background for most colours.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== "light") return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const text = `var(--mantine-color-${parsed.color}-9)`;
  return { ...colors, color: text, hoverColor: text };
};

/** WCAG AA contrast: dimmed text in gray 7 (Mantine's gray 6 reaches only 3.3:1 on white). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "var(--mantine-color-gray-7)" },
  dark: {},
});

/**
 * SPEC §9: primary purple, success, error and warning colours (Mantine's own red, the colour of its error
 * states, is the product's error colour); Inter and Roboto Mono (bundled through @fontsource in root.tsx);
 * breakpoints xs 375, sm 768, md 1280, lg 1440 (Mantine writes media queries in em of the browser's 16 px);
 * 8 px spacing unit; radius 4; base font 16 px with html at 18 px, so every rem-based Mantine size is scaled
 * by 16/18 to stay at its pixel value; menus at least 174 px wide.
 */
export const theme = createTheme({
  scale: 16 / HTML_FONT_SIZE,
  primaryColor: "purple",
  primaryShade: 6,
  colors: { purple, success, error, warning, red: error },
  fontFamily: "Inter, system-ui, sans-serif",
  fontFamilyMonospace: "'Roboto Mono', ui-monospace, monospace",
  headings: { fontFamily: "Inter, system-ui, sans-serif" },
  fontSizes: { xs: "12px", sm: "14px", md: "16px", lg: "18px", xl: "20px" },
  defaultRadius: "sm",
  radius: { xs: "2px", sm: "4px", md: "4px", lg: "8px", xl: "16px" },
  spacing: { xs: spacing(0.5), sm: spacing(1), md: spacing(2), lg: spacing(3), xl: spacing(4) },
  breakpoints: { xs: "23.4375em", sm: "48em", md: "80em", lg: "90em", xl: "100em" },
  variantColorResolver,
  components: {
    // What Menu.extend returns, written without importing Menu: that import alone put the menu, its popover and
    // floating-ui on every page, the ones without a menu too (decision 064).
    Menu: { styles: { dropdown: { minWidth: MENU_MIN_WIDTH } } } satisfies { styles: MenuProps["styles"] },
  },
  other: { palette, spacingUnit: SPACING_UNIT },
});
