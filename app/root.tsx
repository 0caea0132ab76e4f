import inter400 from "@fontsource/inter/400.css?url";
import inter500 from "@fontsource/inter/500.css?url";
import inter600 from "@fontsource/inter/600.css?url";
import inter700 from "@fontsource/inter/700.css?url";
import robotoMono400 from "@fontsource/roboto-mono/400.css?url";
import notificationStyles from "@mantine/notifications/styles.css?url";
import unsupportedDeviceStyles from "./components/unsupported-device.css?url";
import globalStyles from "./styles/global.css?url";
import mantineStyles from "./styles/mantine-root.css?url";
import themeVariables from "./styles/theme-variables.css?url";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { ErrorPage } from "~/components/error-page";
import { AnalyticsProvider } from "~/features/analytics/analytics-provider";
import { publicAnalyticsConfig } from "~/features/analytics/analytics.server";
import { getEnv } from "~/env.server";
import { publicErrorReportingConfig } from "~/features/error-reporting/error-reporting.server";
import { useErrorReporting } from "~/features/error-reporting/use-error-reporting";
import { isSidebarCollapsed } from "~/components/layout/sidebar-state";
import { NavigationLoadingOverlay } from "~/components/loading-overlay";
import { Toaster } from "~/components/toaster";
import { ipadDesktopModeScript, isUnsupportedDevice } from "~/components/unsupported-device";
import { UnsupportedDevicePage } from "~/components/unsupported-device-page";
import { useRootData } from "~/hooks/use-root-data";
import { useNonce } from "~/nonce";
import { theme } from "~/theme";
import { getToast } from "~/toast.server";

export const links: LinksFunction = () => [
  // The ICO answers browsers that ask for /favicon.ico; those that read SVG take the sharp one.
  { rel: "icon", href: "/favicon.ico", sizes: "48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...[
    inter400,
    inter500,
    inter600,
    inter700,
    robotoMono400,
    mantineStyles,
    themeVariables,
    notificationStyles,
    unsupportedDeviceStyles,
    globalStyles,
  ].map((href) => ({ rel: "stylesheet", href })),
];

export const meta: MetaFunction = () => [{ title: "Cloud Console" }];

/** What every page needs before its first paint: the flash toast, the sidebar state and the device verdict. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  return data(
    {
      toast,
      sidebarCollapsed: isSidebarCollapsed(request.headers.get("Cookie")),
      unsupportedDevice: isUnsupportedDevice(request.headers),
      analytics: publicAnalyticsConfig(),
      errorReporting: publicErrorReportingConfig(),
      // How often busy pages look again (useRevalidateWhileBusy): SPEC's 5 s unless POLL_INTERVAL_MS says so.
      pollIntervalMs: getEnv().pollIntervalMs,
    },
    { headers },
  );
}

// Cheap (cookies and headers only) and the only reader of the flash toast: any navigation may carry one.
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRootData();
  useErrorReporting(root?.errorReporting);
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <ColorSchemeScript nonce={nonce} defaultColorScheme="light" />
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: ipadDesktopModeScript }}
        />
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: zodJitlessScript }}
        />
      </head>
      <body>
        {/* The theme's CSS variables come from styles/theme-variables.css (scripts/theme-css.tsx). */}
        <MantineProvider theme={theme} defaultColorScheme="light" withCssVariables={false}>
          <AnalyticsProvider config={root?.analytics}>
            {root?.unsupportedDevice ? (
              <UnsupportedDevicePage />
            ) : (
              <>
                <div className="app-frame">{children}</div>
                <div className="unsupported-device">
                  <UnsupportedDevicePage />
                </div>
              </>
            )}
          </AnalyticsProvider>
          <Toaster toast={root?.toast} />
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Runs before the modules: zod probes for new Function() when the first object schema is built (to compile fast
 * parsers), which the CSP (no 'unsafe-eval') blocks and reports as a violation. zod reads its configuration from
 * this global, so every copy of it parses without compiling in the browser.
 */
const zodJitlessScript = "globalThis.__zod_globalConfig={jitless:true}";

/** Set on <html> once the page is interactive; end-to-end tests wait for it before typing or clicking. */
const HYDRATED_ATTRIBUTE = "data-hydrated";

export default function App() {
  useEffect(() => document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, ""), []);
  return (
    <>
      <Outlet />
      <NavigationLoadingOverlay />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
