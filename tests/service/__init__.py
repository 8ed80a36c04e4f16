"""The HTTP service: routes, bodies, budgets, replay, the OpenAPI document and the play pages in a browser."""
