-- wrk script: optional POST body from the environment, and a one-line JSON summary with p50/p95/p99.
local body_file = os.getenv("WRK_BODY_FILE")
if body_file and body_file ~= "" then
  local f = assert(io.open(body_file, "r"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  wrk.headers["Content-Type"] = "application/json"
  f:close()
end

done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local bad = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    '{"requests": %d, "seconds": %.2f, "rps": %.1f, "p50_ms": %.2f, "p95_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, "errors": %d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000, bad))
end
