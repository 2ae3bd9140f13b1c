// oidc-provider ships no types (the tests use it as an authorization server only).
declare module 'oidc-provider' {
  const Provider: any;
  type Provider = any;
  export default Provider;
}
