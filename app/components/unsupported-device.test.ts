import { describe, expect, it } from "vitest";
import {
  UNSUPPORTED_DEVICE_ATTRIBUTE,
  ipadDesktopModeScript,
  isPhoneOrTabletUserAgent,
  isUnsupportedDevice,
} from "./unsupported-device";

const phones = {
  iPhone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "iPhone Chrome":
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
  "Android phone":
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  "Android reduced UA":
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  "Firefox on Android": "Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0",
  "Samsung Internet":
    "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
  "Windows Phone":
    "Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063",
  "Opera Mini":
    "Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54",
  iPod: "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.0 Mobile/15E148 Safari/604.1",
};

const tablets = {
  iPad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Android tablet":
    "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Kindle Fire":
    "Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.3.1 like Chrome/126.0.6478.71 Safari/537.36",
  "Firefox on an Android tablet": "Mozilla/5.0 (Android 14; Tablet; rv:127.0) Gecko/127.0 Firefox/127.0",
};

const computers = {
  "Chrome on Windows":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Safari on a Mac":
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Firefox on Linux": "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
  "Headless Chromium":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
  ChromeOS:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Edge on a Windows tablet PC":
    "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; Tablet PC 2.0; rv:11.0) like Gecko",
};

describe("the phone and tablet rule", () => {
  it.each(Object.entries(phones))("blocks a phone: %s", (_name, userAgent) => {
    expect(isPhoneOrTabletUserAgent(userAgent)).toBe(true);
  });

  it.each(Object.entries(tablets))("blocks a tablet: %s", (_name, userAgent) => {
    expect(isPhoneOrTabletUserAgent(userAgent)).toBe(true);
  });

  it.each(Object.entries(computers))("lets a computer in: %s", (_name, userAgent) => {
    expect(isPhoneOrTabletUserAgent(userAgent)).toBe(false);
  });

  it("lets a request without a user agent in (the CSS width rule still applies)", () => {
    expect(isPhoneOrTabletUserAgent(null)).toBe(false);
    expect(isUnsupportedDevice(new Headers())).toBe(false);
  });

  it("trusts Chromium's mobile client hint", () => {
    const headers = new Headers({ "User-Agent": computers["Chrome on Windows"], "Sec-CH-UA-Mobile": "?1" });
    expect(isUnsupportedDevice(headers)).toBe(true);
    headers.set("Sec-CH-UA-Mobile", "?0");
    expect(isUnsupportedDevice(headers)).toBe(false);
  });
});

describe("the iPad desktop-mode script", () => {
  function run(navigator: { maxTouchPoints: number; userAgent: string }) {
    const attributes = new Map<string, string>();
    const document = {
      documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) },
    };
    new Function("navigator", "document", ipadDesktopModeScript)(navigator, document);
    return attributes.has(UNSUPPORTED_DEVICE_ATTRIBUTE);
  }

  it("marks an iPad that presents itself as a Mac", () => {
    expect(run({ maxTouchPoints: 5, userAgent: computers["Safari on a Mac"] })).toBe(true);
  });

  it("leaves a Mac (no touch screen) and touch-screen PCs alone", () => {
    expect(run({ maxTouchPoints: 0, userAgent: computers["Safari on a Mac"] })).toBe(false);
    expect(run({ maxTouchPoints: 10, userAgent: computers["Chrome on Windows"] })).toBe(false);
  });
});
