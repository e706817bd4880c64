// Starts Swagger UI on the API document. A file, not an inline script: the docs page's
// Content-Security-Policy allows scripts from the service only.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({ url: "/api/docs/json", dom_id: "#swagger-ui", validatorUrl: "none", persistAuthorization: true });
});
