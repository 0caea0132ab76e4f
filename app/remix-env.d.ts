/// <reference types="@remix-run/node" />
/// <reference types="@remix-run/react" />

declare module "*.css?url" {
  const href: string;
  export default href;
}
