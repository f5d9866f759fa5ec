# frozen_string_literal: true

# Entry point of the blind-ruby server: an in-memory implementation of the
# public REST API v1 (workspaces, governance models, records, submissions,
# API keys), on Sinatra served by Puma in single mode.
#
#   ruby server.rb [--host 127.0.0.1] [--port 0] [--window-seconds 60]
#
# Once listening it writes one JSON line to stdout:
#   {"url": "http://HOST:PORT", "keys": {"main": "...", "other": "..."}}
# Everything else (Puma's and the application's logs) goes to stderr.

require 'socket'
require 'json'

def usage_error(message)
  warn "server.rb: #{message}"
  warn 'usage: ruby server.rb [--host HOST] [--port PORT] [--window-seconds N]'
  exit 2
end

def parse_options(argv)
  options = { host: '127.0.0.1', port: 0, window: 60 }
  args = argv.dup
  until args.empty?
    arg = args.shift
    name, inline = arg.split('=', 2)
    case name
    when '--host', '--port', '--window-seconds'
      value = inline || args.shift
      usage_error("#{name} needs a value") if value.nil? || value.empty?
      case name
      when '--host' then options[:host] = value
      when '--port'
        usage_error('--port must be an integer from 0 to 65535') unless value.match?(/\A\d{1,5}\z/) && value.to_i <= 65_535
        options[:port] = value.to_i
      when '--window-seconds'
        usage_error('--window-seconds must be a positive integer') unless value.match?(/\A\d{1,9}\z/) && value.to_i.positive?
        options[:window] = value.to_i
      end
    when '-h', '--help'
      warn 'usage: ruby server.rb [--host HOST] [--port PORT] [--window-seconds N]'
      exit 0
    else
      usage_error("unknown argument #{arg}")
    end
  end
  options
end

options = parse_options(ARGV)

require 'puma'
require 'puma/configuration'
require 'puma/events'
require 'puma/server'
require_relative 'lib/store'
require_relative 'lib/rate_limiter'
require_relative 'lib/gatekeeper'
require_relative 'lib/app'
require_relative 'lib/seed'

PER_KEY_LIMIT = 100          # requests per API key per window
UNAUTHENTICATED_LIMIT = 20   # requests without Authorization header per IP per window

state_lock = Mutex.new
store = Store.new(state_lock)
main_key, other_key = Seed.run(store)

ApiApp.set :store, store
app = Gatekeeper.new(
  ApiApp,
  store: store,
  key_limiter: RateLimiter.new(limit: PER_KEY_LIMIT, window: options[:window], lock: state_lock),
  ip_limiter: RateLimiter.new(limit: UNAUTHENTICATED_LIMIT, window: options[:window], lock: state_lock)
)

events = Puma::Events.new($stderr, $stderr)
server = Puma::Server.new(
  app, events,
  environment: 'production',             # no stack traces in low-level error pages
  force_shutdown_after: 0.5,             # bound the graceful stop
  lowlevel_error_handler: lambda do |_error, _env, status|
    status = 500 unless status.is_a?(Integer) && status >= 500
    ApiErrors.error_response(status, 'api_error', 'An unexpected error occurred. Please retry later.')
  end
)

# Bind the listening socket ourselves (port 0: the kernel picks a free port)
# and hand that very socket to Puma, so the port is never released in between.
begin
  listener = TCPServer.new(options[:host], options[:port])
rescue SystemCallError, SocketError => e
  warn "server.rb: cannot listen on #{options[:host]}:#{options[:port]}: #{e.message}"
  exit 1
end
listener.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
listener.listen(1024)
port = listener.addr[1]
server.binder.inherit_tcp_listener(options[:host], port, listener)

# Signals: stop promptly and exit 0. The trap only wakes the main thread.
stop_reader, stop_writer = IO.pipe
%w[TERM INT].each do |signal|
  Signal.trap(signal) do
    stop_writer.write_nonblock('.')
  rescue IO::WaitWritable, IOError
    nil
  end
end

server_thread = server.run

url_host = options[:host].include?(':') ? "[#{options[:host]}]" : options[:host]
ready_line = %({"url": #{JSON.generate("http://#{url_host}:#{port}")}, ) +
             %("keys": {"main": #{JSON.generate(main_key)}, "other": #{JSON.generate(other_key)}}}\n)
$stdout.write(ready_line)
$stdout.flush

signalled = false
until signalled
  signalled = !IO.select([stop_reader], nil, nil, 1).nil?
  break unless server_thread.alive?
end

unless signalled
  warn 'server.rb: the Puma server thread ended unexpectedly'
  exit!(1)
end

# Graceful stop, bounded: in-flight requests get half a second to finish.
stopper = Thread.new { server.stop(true) }
stopper.join(1.2)
$stderr.flush
exit!(0)
