import inter400 from "@fontsource/inter/400.css";
import inter500 from "@fontsource/inter/500.css";
import inter600 from "@fontsource/inter/600.css";
import inter700 from "@fontsource/inter/700.css";
import robotoMono400 from "@fontsource/roboto-mono/400.css";
import mantineStyles from "@mantine/core/styles.css";
import globalStyles from "./styles/global.css";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorPage } from "~/components/error-page";
import { useNonce } from "~/nonce";
import { theme } from "~/theme";

export const links: LinksFunction = () =>
  [inter400, inter500, inter600, inter700, robotoMono400, mantineStyles, globalStyles].map((href) => ({
    rel: "stylesheet",
    href,
  }));

export const meta: MetaFunction = () => [{ title: "Cloud Console" }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <ColorSchemeScript nonce={nonce} defaultColorScheme="light" />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="light">
          {children}
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
