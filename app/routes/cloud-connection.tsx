import { data, type LoaderFunctionArgs, type LinksFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { BrandedLayout } from "~/components/branded-layout";
import { ErrorPage } from "~/components/error-page";
import { GENERATION_CARD_WIDTH } from "~/features/terraform/terraform-generation-card";
import { requirePlatformClient } from "~/platform/request.server";
import { mantineShellSheet, mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineShellSheet, mantineFormsSheet];

/** The branded frame is as wide as the generation card plus its padding (SPEC §2.4: 854 px). */
const FRAME_WIDTH = GENERATION_CARD_WIDTH + 66;

/** SPEC §2.1: the cloud-connection base path is protected and shown in the branded layout. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { headers } = await requirePlatformClient(request);
  return data(null, { headers });
}

export default function CloudConnectionLayout() {
  return (
    <BrandedLayout maxWidth={FRAME_WIDTH}>
      <Outlet />
    </BrandedLayout>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
