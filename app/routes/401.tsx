import { data, type MetaFunction } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";
import { errorMessages } from "#contract/errors";

export const meta: MetaFunction = () => [{ title: "Forbidden · Cloud Console" }];

export function loader() {
  return data(null, { status: 401 });
}

export default function Forbidden() {
  return <StatusPage code="401" title="Forbidden" message={errorMessages.restrictedAccess} />;
}
