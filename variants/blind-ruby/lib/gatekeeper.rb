# frozen_string_literal: true

require_relative 'errors'
require_relative 'store'

# Rack middleware in front of the application: authentication and rate
# limiting, for every path and method.
#
# * No Authorization header: counted against the client IP's budget
#   (20 per window); 429 past it, else 401 in the header-error shape.
# * A malformed header (another scheme, "Bearer" with no token, more than one
#   token, a token that does not start with the key prefix): 401 in the
#   header-error shape. Not counted against any budget.
# * A well-formed key that is unknown or revoked: 401 in the common error
#   envelope (type authentication_error, code null, param null). Not counted.
# * A live key: counted against that key's budget (100 per window); 429 past
#   it, else the request goes on to the application with the account set.
#
# Every response counted against a budget carries the X-RateLimit-* headers
# of that budget; 429s add Retry-After.
class Gatekeeper
  # RFC 7235 credentials: scheme (any letter case), one or more spaces, token.
  BEARER = /\A[ \t]*bearer +([^ \t]+)[ \t]*\z/i.freeze
  PREFIX = Store::KEY_PREFIX.downcase.b.freeze
  REALM = 'Bearer realm="api"'

  def initialize(app, store:, key_limiter:, ip_limiter:)
    @app = app
    @store = store
    @key_limiter = key_limiter
    @ip_limiter = ip_limiter
  end

  def call(env)
    # This API reads JSON bodies only. Tell Rack the form body is already
    # parsed (as empty) so that it never tries to read a JSON or other body as
    # an HTML form.
    env['rack.request.form_input'] = env['rack.input']
    env['rack.request.form_hash'] = {}

    header = env['HTTP_AUTHORIZATION']
    return anonymous(env) if header.nil?

    token = bearer_token(header)
    return header_error('malformed_authorization_header', malformed_message, 'invalid_request') unless token

    account_id, key_id = @store.authenticate(token)
    unless account_id
      return ApiErrors.error_response(
        401, 'authentication_error', 'The API key is not valid. It may have been deleted.',
        headers: { 'WWW-Authenticate' => %(#{REALM}, error="invalid_token") }
      )
    end

    decision = @key_limiter.hit(key_id)
    return ApiErrors.rate_limited(decision) unless decision.allowed

    env['api.account_id'] = account_id
    env['api.key_id'] = key_id
    status, headers, body = @app.call(env)
    decision.headers.each { |name, value| headers[name] = value }
    [status, headers, body]
  end

  private

  def anonymous(env)
    decision = @ip_limiter.hit(env['REMOTE_ADDR'].to_s)
    return ApiErrors.rate_limited(decision) unless decision.allowed

    header_error('missing_authorization_header',
                 'No Authorization header was sent. Send "Authorization: Bearer <API key>".',
                 nil, decision.headers)
  end

  def bearer_token(header)
    match = BEARER.match(header.b)
    return nil unless match

    token = match[1]
    token.downcase.start_with?(PREFIX) ? token : nil
  end

  def malformed_message
    "The Authorization header is malformed. Send \"Authorization: Bearer <API key>\"; keys start with \"#{Store::KEY_PREFIX}\"."
  end

  # The 401 for a missing or malformed Authorization header. Its shape is
  # deliberately flat, unlike the common error envelope (as the document
  # says it differs): {"error": "authentication_error", "code": ..., "message": ...}.
  def header_error(code, message, oauth_error, extra_headers = {})
    challenge = oauth_error ? %(#{REALM}, error="#{oauth_error}") : REALM
    ApiErrors.response(401, { 'error' => 'authentication_error', 'code' => code, 'message' => message },
                       { 'WWW-Authenticate' => challenge }.merge(extra_headers))
  end
end
