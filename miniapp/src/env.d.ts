declare module "*.css";
/** The `app-` entries of a Fluent file (miniapp/build.ts keeps only those). */
declare module "*.ftl" {
  const text: string;
  export default text;
}
