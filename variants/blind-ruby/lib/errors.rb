# frozen_string_literal: true

require_relative 'strict_json'

# Builders for JSON responses, shared by the Rack middleware and the app.
module ApiErrors
  JSON_TYPE = 'application/json'

  module_function

  # The common error envelope: {"error": {type, code, message, param, path}}.
  # The rate-limit body omits "path", as in the document's example.
  def envelope(type, message, code: nil, param: nil, path: nil, include_path: true)
    error = { 'type' => type, 'code' => code, 'message' => message, 'param' => param }
    error['path'] = path if include_path
    { 'error' => error }
  end

  def response(status, body, headers = {})
    [status, { 'Content-Type' => JSON_TYPE }.merge(headers), [StrictJSON.generate(body)]]
  end

  def error_response(status, type, message, headers: {}, **opts)
    response(status, envelope(type, message, **opts), headers)
  end

  def rate_limited(decision)
    seconds = decision.retry_after
    unit = seconds == 1 ? 'second' : 'seconds'
    body = envelope('rate_limit_error', "Too many requests. Retry in #{seconds} #{unit}.",
                    code: 'rate_limit_exceeded', include_path: false)
    response(429, body, decision.headers.merge('Retry-After' => seconds.to_s))
  end
end
