"""What wraps every request, whatever its route: per-client budgets (``budgets``), replayed responses
(``replay``), metrics and access logs (``observability``), error responses (``errors``) and database
faults with the readiness check (``faults``)."""
