# frozen_string_literal: true

# Fixed-window request counter.
#
# Each bucket (an API key id, or a client IP address for requests that carry
# no Authorization header) gets a window of `window` seconds that opens with
# the bucket's first request and closes `window` seconds later; the next
# request after that opens a fresh window. At most `limit` requests are
# admitted per window.
#
# All state lives in memory and is guarded by the mutex handed in (the
# server's one state lock).
class RateLimiter
  Decision = Struct.new(:allowed, :limit, :remaining, :reset_at, :retry_after, keyword_init: true) do
    # Headers sent with every response counted against this bucket.
    def headers
      {
        'X-RateLimit-Limit' => limit.to_s,
        'X-RateLimit-Remaining' => remaining.to_s,
        'X-RateLimit-Reset' => reset_at.to_s
      }
    end
  end

  Window = Struct.new(:opened_at, :count)

  PRUNE_EVERY = 1000

  attr_reader :limit, :window

  def initialize(limit:, window:, lock:)
    @limit = limit
    @window = window
    @lock = lock
    @buckets = {}
    @hits = 0
  end

  # Counts one request against +bucket+ and returns the Decision.
  def hit(bucket, now = Process.clock_gettime(Process::CLOCK_REALTIME))
    @lock.synchronize do
      prune(now) if ((@hits += 1) % PRUNE_EVERY).zero?

      win = @buckets[bucket]
      if win.nil? || now >= win.opened_at + @window
        win = Window.new(now, 0)
        @buckets[bucket] = win
      end
      win.count += 1

      closes_at = win.opened_at + @window
      allowed = win.count <= @limit
      Decision.new(
        allowed: allowed,
        limit: @limit,
        remaining: [@limit - win.count, 0].max,
        # Unix time (whole seconds) by which the window has reset: rounded up,
        # so that a client waiting until then is never turned away again.
        reset_at: closes_at.ceil,
        retry_after: allowed ? nil : [(closes_at - now).ceil, 1].max
      )
    end
  end

  private

  def prune(now)
    @buckets.delete_if { |_, win| now >= win.opened_at + @window }
  end
end
