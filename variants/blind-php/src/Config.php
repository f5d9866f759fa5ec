<?php

declare(strict_types=1);

namespace Api;

/**
 * Deployment settings. The launcher passes the per-start values to PHP with
 * Apache's SetEnv; everything else is fixed by the API document or chosen here.
 */
final class Config
{
    /** Fixed start of every API key (the document's <KEY_PREFIX>). */
    public const KEY_PREFIX = 'gk_live_';

    /** Number of random characters after the prefix. */
    public const KEY_SECRET_LENGTH = 40;

    /** Requests per API key per window (document: 100 per minute). */
    public const PER_KEY_LIMIT = 100;

    /** Requests without an Authorization header per IP per window (document: 20 per minute). */
    public const UNAUTHENTICATED_LIMIT = 20;

    public const DEFAULT_PAGE = 1;
    public const DEFAULT_LIMIT = 100;
    public const MAX_LIMIT = 10000;

    /** Rows per submission (the document leaves this limit open). */
    public const MAX_ROWS_PER_SUBMISSION = 1000;

    /** Request body size, bytes: the same 8 MiB as php.ini's post_max_size. */
    public const MAX_BODY_BYTES = 8 * 1024 * 1024;

    /** Maximum length of an API key name, in characters. */
    public const MAX_KEY_NAME_LENGTH = 100;

    public static function env(string $name, ?string $default = null): ?string
    {
        $value = $_SERVER[$name] ?? getenv($name);
        if ($value === false || $value === null || $value === '') {
            return $default;
        }

        return (string) $value;
    }

    public static function databasePath(): string
    {
        $path = self::env('API_DB_PATH');
        if ($path === null) {
            throw new \RuntimeException('API_DB_PATH is not set');
        }

        return $path;
    }

    /** Length of the rate-limit window in seconds (60 unless shortened for tests). */
    public static function windowSeconds(): int
    {
        $value = filter_var(self::env('API_RATE_WINDOW_SECONDS', '60'), FILTER_VALIDATE_INT);

        return ($value === false || $value < 1) ? 60 : $value;
    }
}
