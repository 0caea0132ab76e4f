/**
 * SPEC §1: the product is not usable on phones and tablets. The server decides from the request (no flash of
 * the app); a CSS media query covers narrow windows (see unsupported-device.css); `ipadDesktopModeScript`
 * covers iPads that present themselves as a Mac.
 */

/** MDN's advice: "Mobi" marks phones (iPhone, Android phones, Firefox and Opera on phones, Windows Phone). */
const PHONE = /Mobi|iPhone|iPod|Windows Phone|BlackBerry|BB10|Opera Mini|webOS/i;
/** Tablets: iPads, Android without "Mobile" (Android tablets), Kindle/Silk, and those that say "Tablet" (not the
 * "Tablet PC" of old Windows desktops). */
const TABLET = /iPad|Android|Tablet(?! PC)|Silk|Kindle|PlayBook/i;

export function isPhoneOrTabletUserAgent(userAgent: string | null | undefined): boolean {
  if (!userAgent) return false;
  return PHONE.test(userAgent) || TABLET.test(userAgent);
}

/** The request comes from a phone or tablet: its User-Agent, or Chromium's mobile client hint. */
export function isUnsupportedDevice(headers: Headers): boolean {
  return headers.get("Sec-CH-UA-Mobile") === "?1" || isPhoneOrTabletUserAgent(headers.get("User-Agent"));
}

/** Attribute set on <html> by `ipadDesktopModeScript`; unsupported-device.css then shows the blocker. */
export const UNSUPPORTED_DEVICE_ATTRIBUTE = "data-unsupported-device";

/**
 * iPadOS Safari asks for desktop sites with a Mac user agent, which no server rule can tell apart; a Mac has
 * no touch screen. Runs in <head> before the body is painted, so the app never flashes.
 */
export const ipadDesktopModeScript = `if(navigator.maxTouchPoints>1&&/Macintosh/.test(navigator.userAgent))document.documentElement.setAttribute(${JSON.stringify(UNSUPPORTED_DEVICE_ATTRIBUTE)},"")`;
