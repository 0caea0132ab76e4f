import { data, type MetaFunction } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";

export const meta: MetaFunction = () => [{ title: "Page not found · Cloud Console" }];

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <StatusPage
      code="404"
      title="Page not found"
      message="The page you are looking for does not exist or has moved."
    />
  );
}
