<?php

declare(strict_types=1);

namespace Api\Auth;

use Api\Config;
use Api\Database;
use Api\Http\ApiError;
use Api\Http\AuthenticationRequired;
use Api\Http\Request;
use Api\RateLimiter;
use Api\Support\Clock;

/**
 * Authentication and rate limiting, run before routing on every request.
 *
 * - No Authorization header: counted against the client IP's budget
 *   (20 per window), then 401 with the flat body.
 * - A header that is not "Bearer <one token>": 401 with the flat body.
 * - A token that is not exactly a live key: 401 with the common envelope.
 *   These requests are not counted against any budget.
 * - A live key: its last-use time is updated and the request is counted
 *   against the key's budget (100 per window).
 */
final class Authenticator
{
    public function authenticate(Request $request): ApiKeyContext
    {
        $db = Database::connection();
        $limiter = new RateLimiter($db, Config::windowSeconds());
        $header = $request->header('Authorization');

        if ($header === null || trim($header) === '') {
            $state = $limiter->hit('ip:' . $request->clientIp, Config::UNAUTHENTICATED_LIMIT);
            RateLimiter::sendHeaders($state);
            if ($state['exceeded']) {
                throw ApiError::rateLimited($state['retry_after']);
            }
            throw new AuthenticationRequired('Authentication required: send the header "Authorization: Bearer <API key>".');
        }

        $token = self::bearerToken($header);
        if ($token === null) {
            throw new AuthenticationRequired('The Authorization header must be "Bearer <API key>".');
        }

        $statement = $db->prepare('SELECT id, account_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL');
        $statement->execute([hash('sha256', $token)]);
        $key = $statement->fetch();
        // Finish the SELECT now: a statement left open keeps its read snapshot,
        // and SQLite refuses (SQLITE_BUSY, no waiting) to turn a stale snapshot
        // into the write transaction below.
        $statement->closeCursor();
        if ($key === false) {
            throw ApiError::unknownKey();
        }

        $state = Database::writeTransaction(static function (\PDO $db) use ($key, $limiter): array {
            $db->prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?')
                ->execute([Clock::nowIso(), $key['id']]);

            return $limiter->hit('key:' . $key['id'], Config::PER_KEY_LIMIT);
        });
        RateLimiter::sendHeaders($state);
        if ($state['exceeded']) {
            throw ApiError::rateLimited($state['retry_after']);
        }

        return new ApiKeyContext($key['id'], $key['account_id']);
    }

    /**
     * The token of a "Bearer <token>" header, or null when the header is
     * malformed. The scheme is case-insensitive and may be followed by
     * several spaces or tabs (RFC 7235).
     */
    private static function bearerToken(string $header): ?string
    {
        $parts = preg_split('/[ \t]+/', trim($header, " \t"));
        if ($parts === false || count($parts) !== 2 || strcasecmp($parts[0], 'Bearer') !== 0 || $parts[1] === '') {
            return null;
        }

        return $parts[1];
    }
}
