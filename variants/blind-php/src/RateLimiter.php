<?php

declare(strict_types=1);

namespace Api;

use PDO;

/**
 * Fixed-window rate limiter counted in SQLite, so that every Apache child
 * sees the same counters. A window opens with the first request of a bucket
 * and lasts Config::windowSeconds(); the next request after it opens a new one.
 */
final class RateLimiter
{
    public function __construct(private readonly PDO $db, private readonly int $windowSeconds)
    {
    }

    /**
     * Counts one request against $bucket and returns the state after it.
     *
     * @return array{limit: int, remaining: int, reset: int, exceeded: bool, retry_after: int}
     */
    public function hit(string $bucket, int $limit): array
    {
        $now = time();
        $statement = $this->db->prepare(
            'INSERT INTO rate_limits (bucket, window_start, hits) VALUES (?, ?, 1)
             ON CONFLICT (bucket) DO UPDATE SET
                 hits = CASE WHEN excluded.window_start >= rate_limits.window_start + ?
                             THEN 1 ELSE rate_limits.hits + 1 END,
                 window_start = CASE WHEN excluded.window_start >= rate_limits.window_start + ?
                                     THEN excluded.window_start ELSE rate_limits.window_start END
             RETURNING window_start, hits'
        );
        $statement->execute([$bucket, $now, $this->windowSeconds, $this->windowSeconds]);
        $row = $statement->fetchAll()[0];

        $reset = (int) $row['window_start'] + $this->windowSeconds;
        $hits = (int) $row['hits'];

        return [
            'limit' => $limit,
            'remaining' => max(0, $limit - $hits),
            'reset' => $reset,
            'exceeded' => $hits > $limit,
            'retry_after' => max(1, $reset - $now),
        ];
    }

    /** @param array{limit: int, remaining: int, reset: int} $state */
    public static function sendHeaders(array $state): void
    {
        header('X-RateLimit-Limit: ' . $state['limit']);
        header('X-RateLimit-Remaining: ' . $state['remaining']);
        header('X-RateLimit-Reset: ' . $state['reset']);
    }
}
