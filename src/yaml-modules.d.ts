// wrangler bundles `*.yaml` as text modules (wrangler.toml `[[rules]] type = "Text"`): the import is the file's text.
declare module "*.yaml" {
  const text: string;
  export default text;
}
