import { Outlet } from "@remix-run/react";
import { BrandedLayout } from "~/components/branded-layout";
import { ErrorPage } from "~/components/error-page";

export default function OrganizationsLayout() {
  return (
    <BrandedLayout>
      <Outlet />
    </BrandedLayout>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
