// The API documentation page (/docs): Swagger UI from the server's own copy, reading
// /openapi.json. A file rather than an inline script, so the Content-Security-Policy holds.
"use strict";
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
