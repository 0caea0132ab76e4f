/** SPEC §2.7 and §9 layout constants, in pixels. */
export const APP_BAR_HEIGHT = 65;
export const SIDEBAR_WIDTH = 186;
export const SIDEBAR_COLLAPSED_WIDTH = 52;
export const SIDEBAR_FALLBACK_WIDTH = 80;
export const MENU_MIN_WIDTH = 174;
