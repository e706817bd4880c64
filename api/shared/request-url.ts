/**
 * The request's URL as an object. An HTTP/1.0 request without a Host header (HAProxy's default
 * health check sends one) reaches the app with a bare path as `request.url`, which `new URL` alone
 * refuses; such a request is read as addressed to localhost.
 */
export function requestUrl(request: Request): URL {
  return new URL(request.url, "http://localhost");
}
