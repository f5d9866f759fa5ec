package main

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Ceilings of the document, per window.
const (
	perKeyLimit  = 100 // requests per API key
	perIPLimit   = 20  // requests without valid credentials, per client IP
	sweepEveryN  = 4096
	rateLimitMsg = "Too many requests. Retry in %d seconds."
)

// limiter counts requests in fixed windows. A bucket's window opens with its
// first request and lasts the configured number of seconds; the first
// request after it has ended opens the next one. X-RateLimit-Reset is the
// end of the window rounded up to a whole Unix second.
type limiter struct {
	mu      sync.Mutex
	window  time.Duration
	buckets map[string]*bucket
	calls   int
	now     func() time.Time
}

type bucket struct {
	end   time.Time // when the current window ends
	count int
}

type rateState struct {
	allowed    bool
	limit      int
	remaining  int
	reset      int64 // Unix seconds
	retryAfter int64 // whole seconds, only meaningful when !allowed
}

func newLimiter(windowSeconds int64) *limiter {
	return &limiter{
		window:  time.Duration(windowSeconds) * time.Second,
		buckets: map[string]*bucket{},
		now:     time.Now,
	}
}

// ceilSeconds rounds a non-negative duration up to whole seconds.
func ceilSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}

// take counts one request against the bucket named key with the given
// ceiling. A refused request is not counted.
func (l *limiter) take(key string, limit int) rateState {
	now := l.now()

	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.calls%sweepEveryN == 0 {
		for k, b := range l.buckets {
			if !now.Before(b.end) {
				delete(l.buckets, k)
			}
		}
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{}
		l.buckets[key] = b
	}
	if !now.Before(b.end) { // no window yet, or it has ended: open a new one
		b.end, b.count = now.Add(l.window), 0
	}
	st := rateState{limit: limit, reset: ceilSeconds(time.Duration(b.end.UnixNano()))}
	if b.count >= limit {
		st.retryAfter = ceilSeconds(b.end.Sub(now))
		if st.retryAfter < 1 {
			st.retryAfter = 1
		}
		return st
	}
	b.count++
	st.allowed = true
	st.remaining = limit - b.count
	return st
}

func setRateHeaders(w http.ResponseWriter, st rateState) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(st.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(st.remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(st.reset, 10))
}

// writeRateLimited sends the 429: Retry-After, and the same wait in the message.
func writeRateLimited(w http.ResponseWriter, st rateState) {
	w.Header().Set("Retry-After", strconv.FormatInt(st.retryAfter, 10))
	writeError(w, newErr(http.StatusTooManyRequests, typeRateLimit, "rate_limit_exceeded",
		fmt.Sprintf(rateLimitMsg, st.retryAfter), "", ""))
}
