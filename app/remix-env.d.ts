/// <reference types="@remix-run/node" />
/// <reference types="@remix-run/react" />

declare module "*.css" {
  const href: string;
  export default href;
}
