# frozen_string_literal: true

require 'sinatra/base'
require 'mustermann'
require 'uri'
require_relative 'errors'
require_relative 'strict_json'
require_relative 'store'

# The /api/v1 application. Authentication and rate limiting happen before a
# request gets here (see Gatekeeper); env['api.account_id'] is the account
# the request acts for.
class ApiApp < Sinatra::Base
  DEFAULT_PAGE = 1
  DEFAULT_LIMIT = 100
  MAX_LIMIT = 10_000
  MAX_BODY_BYTES = 1024 * 1024
  MAX_ROWS_PER_SUBMISSION = 1000
  MAX_KEY_NAME_LENGTH = 100
  RECORD_STATUSES = Store::RECORD_STATUSES

  configure do
    set :environment, :production
    set :show_exceptions, false
    set :raise_errors, false
    set :dump_errors, false       # unexpected faults are logged by the error block below
    set :logging, false           # no line per request
    set :static, false
    set :sessions, false
    # Bearer-token API without cookies: JSON CSRF ("JSON hijacking") does not
    # apply, and its 403 text/plain reaction would break the JSON contract.
    # The other default protections stay on.
    set :protection, except: [:json_csrf]
    set :default_content_type, ApiErrors::JSON_TYPE
  end

  # [method, Mustermann pattern] of every route, to tell 405 from 404.
  ROUTES = []

  def self.api(verb, path, &block)
    ROUTES << [verb, Mustermann.new(path)]
    route(verb, path, {}, &block)
    # Sinatra serves HEAD for every GET route, as HTTP asks.
    route('HEAD', path, {}, &block) if verb == 'GET'
  end

  # ---------------------------------------------------------------- helpers

  helpers do
    def store
      settings.store
    end

    def account_id
      env['api.account_id'] or raise 'request reached the application unauthenticated'
    end

    def send_json(code, payload, extra_headers = {})
      halt code, { 'Content-Type' => ApiErrors::JSON_TYPE }.merge(extra_headers), StrictJSON.generate(payload)
    end

    def fail_with(code, type, message, extra_headers: {}, **opts)
      send_json(code, ApiErrors.envelope(type, message, **opts), extra_headers)
    end

    def invalid!(param, message, code: 'invalid_value', path: nil)
      fail_with(422, 'invalid_request_error', message, code: code, param: param, path: path)
    end

    def missing!(param, message = nil, path: nil)
      fail_with(400, 'invalid_request_error', message || "Missing required parameter: #{param}.",
                code: 'missing_param', param: param, path: path)
    end

    def not_found!(what, param: nil, path: nil)
      fail_with(404, 'not_found_error', "No such #{what}.", param: param, path: path)
    end

    # -- query string ----------------------------------------------------

    # [[name, value-or-nil], ...] in order, percent-decoded, '+' as space.
    def query_pairs
      @query_pairs ||= env['QUERY_STRING'].to_s.split('&').reject(&:empty?).map do |pair|
        name, value = pair.split('=', 2)
        [decode_component(name), value && decode_component(value)]
      end
    end

    def decode_component(text)
      URI.decode_www_form_component(text)
    rescue ArgumentError
      fail_with(400, 'invalid_request_error', 'The query string is not validly percent-encoded.',
                code: 'invalid_query_string')
    end

    # The value of a scalar query parameter: nil when absent, '' when empty.
    # Given twice, or in bracket form (name[]=, name[x]=), it is refused.
    def query_param(name)
      bracket = "#{name}[".b
      hits = query_pairs.select { |k, _| k.b == name.b || k.b.start_with?(bracket) }
      return nil if hits.empty?

      if hits.length > 1 || hits[0][0].b != name.b
        invalid!(name, "The #{name} parameter must be given once, as a single value.")
      end
      hits[0][1] || ''
    end

    # An integer query parameter: decimal digits only (leading zeros allowed);
    # absent or empty means the default.
    def integer_param(name, default:, min:, max: nil)
      raw = query_param(name)
      return default if raw.nil? || raw.empty?

      unless raw.b.match?(/\A[0-9]+\z/)
        invalid!(name, "#{name} must be a whole number written with the digits 0-9.", code: 'invalid_integer')
      end
      digits = raw.sub(/\A0+(?=.)/, '')
      # Any number of more than 30 digits is past every bound and every page.
      value = digits.length > 30 ? 10**31 : Integer(digits, 10)
      if value < min || (max && value > max)
        range = max ? "from #{min} to #{max}" : "#{min} or more"
        invalid!(name, "#{name} must be #{range}.", code: 'out_of_range')
      end
      value
    end

    def pagination
      page = integer_param('page', default: DEFAULT_PAGE, min: 1)
      limit = integer_param('limit', default: DEFAULT_LIMIT, min: 1, max: MAX_LIMIT)
      [page, limit]
    end

    def filter_value(name)
      value = query_param(name)
      value.nil? || value.empty? ? nil : value
    end

    # Responds with one page of +items+ (already filtered) in the envelope.
    def send_page(items, page, limit, &serializer)
      total = items.length
      offset = (page - 1) * limit
      slice = offset < total ? items[offset, limit] : []
      slice = slice.map(&serializer) if serializer
      send_json(200, { 'items' => slice, 'has_more' => offset + limit < total, 'total_count' => total })
    end

    def list_collection(collection, filters = {})
      page, limit = pagination
      items = store.list(collection, account_id)
      filters.each do |field, value|
        items = items.select { |item| item[field] == value } if value
      end
      send_page(items, page, limit)
    end

    def retrieve(collection, what)
      resource = store.find(collection, account_id, params['id'].to_s)
      resource ? send_json(200, resource) : not_found!(what)
    end

    # -- request body ----------------------------------------------------

    def json_media_type?(content_type)
      media = content_type.to_s.split(';', 2).first.to_s.strip.downcase
      media == 'application/json' || media.match?(%r{\Aapplication/[a-z0-9.+-]+\+json\z})
    end

    # The request body as a Hash. No body at all reads as {}.
    def json_object_body
      length = env['CONTENT_LENGTH'].to_s
      if length.match?(/\A[0-9]+\z/) && length.to_i > MAX_BODY_BYTES
        fail_with(413, 'invalid_request_error', "The request body exceeds #{MAX_BODY_BYTES} bytes.",
                  code: 'request_too_large')
      end
      input = request.body
      raw = input ? input.read(MAX_BODY_BYTES + 1).to_s : ''
      if raw.bytesize > MAX_BODY_BYTES
        fail_with(413, 'invalid_request_error', "The request body exceeds #{MAX_BODY_BYTES} bytes.",
                  code: 'request_too_large')
      end
      return {} if raw.b.strip.empty?

      content_type = env['CONTENT_TYPE']
      if content_type && !content_type.strip.empty? && !json_media_type?(content_type)
        fail_with(415, 'invalid_request_error', 'Request bodies must be JSON, sent with Content-Type: application/json.',
                  code: 'unsupported_media_type')
      end

      begin
        body = StrictJSON.parse(raw)
      rescue StrictJSON::Error => e
        fail_with(400, 'invalid_request_error', e.message, code: 'invalid_json')
      end
      unless body.is_a?(Hash)
        fail_with(400, 'invalid_request_error', 'The request body must be a JSON object.', code: 'invalid_json')
      end
      body
    end

    # A required, non-blank string member of the body.
    def body_string!(body, name)
      missing!(name, path: name) unless body.key?(name)
      value = body[name]
      invalid!(name, "#{name} must be a string.", code: 'invalid_type', path: name) unless value.is_a?(String)
      invalid!(name, "#{name} must not be blank.", code: 'blank', path: name) if value.strip.empty?
      value
    end
  end

  # ----------------------------------------------------------------- routes

  api 'GET', '/api/v1/workspaces' do
    list_collection(:workspaces)
  end

  api 'GET', '/api/v1/workspaces/:id' do
    retrieve(:workspaces, 'workspace')
  end

  api 'GET', '/api/v1/governance_models' do
    list_collection(:governance_models)
  end

  api 'GET', '/api/v1/governance_models/:id' do
    retrieve(:governance_models, 'governance model')
  end

  api 'GET', '/api/v1/records' do
    page, limit = pagination
    status = filter_value('status')
    if status && !RECORD_STATUSES.include?(status)
      invalid!('status', "status must be one of: #{RECORD_STATUSES.join(', ')}.")
    end
    workspace_id = filter_value('workspace_id')
    items = store.list(:records, account_id)
    items = items.select { |r| r['status'] == status } if status
    items = items.select { |r| r['workspace_id'] == workspace_id } if workspace_id
    send_page(items, page, limit)
  end

  api 'GET', '/api/v1/records/:id' do
    retrieve(:records, 'record')
  end

  api 'GET', '/api/v1/taxonomies' do
    list_collection(:taxonomies)
  end

  api 'GET', '/api/v1/taxonomies/:id' do
    retrieve(:taxonomies, 'taxonomy')
  end

  api 'GET', '/api/v1/fields' do
    list_collection(:fields, 'taxonomy_id' => filter_value('taxonomy_id'))
  end

  api 'GET', '/api/v1/fields/:id' do
    retrieve(:fields, 'field')
  end

  api 'GET', '/api/v1/picklists' do
    list_collection(:picklists)
  end

  api 'GET', '/api/v1/picklists/:id' do
    retrieve(:picklists, 'picklist')
  end

  # -- submissions

  api 'GET', '/api/v1/submissions' do
    page, limit = pagination
    workspace_id = filter_value('workspace_id')
    taxonomy_id = filter_value('taxonomy_id')
    items = store.list(:submissions, account_id)
    items = items.select { |s| s['workspace_id'] == workspace_id } if workspace_id
    items = items.select { |s| s['taxonomy_id'] == taxonomy_id } if taxonomy_id
    send_page(items, page, limit)
  end

  api 'GET', '/api/v1/submissions/:id' do
    retrieve(:submissions, 'submission')
  end

  api 'POST', '/api/v1/submissions' do
    body = json_object_body

    query_workspace = query_param('workspace_id')
    missing!('workspace_id') if query_workspace.nil? || query_workspace.empty?
    %w[workspace_id taxonomy_id rows].each { |name| missing!(name, path: name) unless body.key?(name) }

    workspace_id = body_string!(body, 'workspace_id')
    taxonomy_id = body_string!(body, 'taxonomy_id')
    rows = body['rows']
    invalid!('rows', 'rows must be an array of objects.', code: 'invalid_type', path: 'rows') unless rows.is_a?(Array)
    unless workspace_id == query_workspace
      invalid!('workspace_id', 'workspace_id in the body must match the workspace_id query parameter.',
               code: 'workspace_mismatch', path: 'workspace_id')
    end
    invalid!('rows', 'rows must contain at least one row.', code: 'blank', path: 'rows') if rows.empty?
    if rows.length > MAX_ROWS_PER_SUBMISSION
      fail_with(422, 'plan_limit_exceeded',
                "A submission holds at most #{MAX_ROWS_PER_SUBMISSION} rows on the current plan.",
                code: 'limit_exceeded', param: 'rows', path: 'rows')
    end
    rows.each_with_index do |row, index|
      at = "rows[#{index}]"
      invalid!('rows', "#{at} must be an object.", code: 'invalid_type', path: at) unless row.is_a?(Hash)
      missing!('rows', "Missing required parameter: #{at}.data.", path: "#{at}.data") unless row.key?('data')
      unless row['data'].is_a?(Hash)
        invalid!('rows', "#{at}.data must be an object.", code: 'invalid_type', path: "#{at}.data")
      end
    end

    not_found!('workspace', param: 'workspace_id') unless store.find(:workspaces, account_id, query_workspace)
    not_found!('taxonomy', param: 'taxonomy_id', path: 'taxonomy_id') unless store.find(:taxonomies, account_id, taxonomy_id)

    clean_rows = rows.map { |row| { 'data' => row['data'] } }
    submission = store.add_submission(account_id, workspace_id: workspace_id, taxonomy_id: taxonomy_id,
                                                  rows: clean_rows)
    send_json(201, submission)
  end

  # -- API keys

  api 'GET', '/api/v1/api_keys' do
    page, limit = pagination
    send_page(store.list_keys(account_id), page, limit)
  end

  api 'POST', '/api/v1/api_keys' do
    body = json_object_body
    missing!('name', path: 'name') unless body.key?('name')
    name = body['name']
    invalid!('name', 'name must be a string.', code: 'invalid_type', path: 'name') unless name.is_a?(String)
    invalid!('name', 'name must not be blank.', code: 'blank', path: 'name') if name.strip.empty?
    if name.length > MAX_KEY_NAME_LENGTH
      invalid!('name', "name must be at most #{MAX_KEY_NAME_LENGTH} characters.", code: 'too_long', path: 'name')
    end
    begin
      record, full_key = store.create_key(account_id, name)
    rescue Store::LimitReached
      fail_with(422, 'plan_limit_exceeded',
                "An account holds at most #{Store::MAX_KEYS_PER_ACCOUNT} API keys on the current plan.",
                code: 'limit_exceeded', param: 'api_keys')
    end
    send_json(201, { 'id' => record['id'], 'name' => record['name'], 'key' => full_key }.merge(record))
  end

  api 'GET', '/api/v1/api_keys/:id' do
    key = store.find_key(account_id, params['id'].to_s)
    key ? send_json(200, key) : not_found!('API key')
  end

  api 'DELETE', '/api/v1/api_keys/:id' do
    not_found!('API key') unless store.delete_key(account_id, params['id'].to_s)
    halt 204
  end

  # -- admin-only endpoints: served to web-app administrators, never to keys

  %w[/api/v1/admin/audit_log /api/v1/admin/users /api/v1/admin/accounts].each do |path|
    api 'GET', path do
      fail_with(403, 'authorization_error', 'This endpoint is for administrators of the web app; API keys cannot use it.',
                code: 'admin_only')
    end
  end

  # ----------------------------------------------------------------- errors

  error Sinatra::NotFound do
    path = request.path_info.to_s
    allowed = ROUTES.select do |_, pattern|
      pattern.match(path)
    rescue StandardError
      false
    end.map(&:first).uniq
    if allowed.empty?
      fail_with(404, 'not_found_error', 'No such endpoint.')
    else
      allowed << 'HEAD' if allowed.include?('GET')
      fail_with(405, 'invalid_request_error', "#{request.request_method} is not supported on this path.",
                code: 'method_not_allowed', extra_headers: { 'Allow' => allowed.sort.join(', ') })
    end
  end

  error Sinatra::BadRequest do
    fail_with(400, 'invalid_request_error', 'The query string could not be parsed.', code: 'invalid_query_string')
  end

  if defined?(Rack::QueryParser::QueryLimitError)
    error Rack::QueryParser::QueryLimitError do
      fail_with(400, 'invalid_request_error', 'The query string exceeds the parser limits.',
                code: 'invalid_query_string')
    end
  end

  error ::Exception do
    boom = env['sinatra.error']
    if boom
      lines = ["#{Time.now.utc.strftime('%Y-%m-%d %H:%M:%S')} unexpected #{boom.class}: #{boom.message}",
               *Array(boom.backtrace).first(20)]
      $stderr.puts(lines.join("\n\t"))
    end
    send_json(500, ApiErrors.envelope('api_error', 'An unexpected error occurred. Please retry later.'))
  end
end
