// The REST API reference (docs/decisions.md, API reference pages): Swagger UI over the service's own OpenAPI document.
// Each operation's description says who may call it and its MCP tool; each error response lists its codes.
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  // Links to an operation (#/Device%20Orders/device_order_store) open it.
  deepLinking: true,
  // The operation id is the MCP tool's name.
  displayOperationId: true,
  // A box that narrows the list by tag.
  filter: true,
  // Swagger UI would otherwise ask another site to validate the document, and show its badge.
  validatorUrl: null,
  // Families open on a click: with every family open, Swagger UI 5 never finishes drawing a document of this size
  // (about 150 operations: it started over and over and showed one family; docs/decisions.md, API reference pages).
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  defaultModelExpandDepth: 3,
  showCommonExtensions: true,
});
