import type { LinksFunction } from "@remix-run/node";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadApplications } from "~/features/services/applications.server";
import { ApplicationsListing } from "~/features/services/applications-view";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Applications · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadApplications(request, params.environmentName, context);
}

export default function ApplicationsPage() {
  const { environmentName, applications } = useLoaderData<typeof loader>();
  return <ApplicationsListing environmentName={environmentName} applications={applications} />;
}
