<?php

declare(strict_types=1);

namespace Api\Http;

/**
 * An error answered with the common envelope
 * {"error": {"type", "code", "message", "param", "path"}}.
 */
class ApiError extends \RuntimeException
{
    /**
     * @param array<string, string> $headers extra response headers
     */
    public function __construct(
        public readonly int $status,
        public readonly string $type,
        string $message,
        public readonly ?string $errorCode = null,
        public readonly ?string $param = null,
        public readonly ?string $path = null,
        public readonly array $headers = [],
    ) {
        parent::__construct($message);
    }

    /** @return array<string, mixed> */
    public function body(): array
    {
        return [
            'error' => [
                'type' => $this->type,
                'code' => $this->errorCode,
                'message' => $this->getMessage(),
                'param' => $this->param,
                'path' => $this->path,
            ],
        ];
    }

    /** 422: a value is present but invalid. `param` always names the input. */
    public static function invalid(string $param, string $message, string $code = 'invalid_value', ?string $path = null): self
    {
        return new self(422, 'invalid_request_error', $message, $code, $param, $path);
    }

    /** 400: a genuinely missing required parameter. */
    public static function missing(string $param, ?string $path = null, ?string $message = null): self
    {
        return new self(400, 'invalid_request_error', $message ?? "The {$param} parameter is required.", 'missing_param', $param, $path);
    }

    public static function notFound(string $message = 'The requested resource does not exist.', ?string $param = null): self
    {
        return new self(404, 'not_found_error', $message, null, $param);
    }

    public static function unknownKey(): self
    {
        return new self(401, 'authentication_error', 'The API key is invalid or has been revoked.', null, null, null, [
            'WWW-Authenticate' => 'Bearer realm="api", error="invalid_token"',
        ]);
    }

    public static function forbidden(string $message): self
    {
        return new self(403, 'authorization_error', $message, 'admin_only');
    }

    /** @param list<string> $allowed */
    public static function methodNotAllowed(array $allowed): self
    {
        return new self(405, 'invalid_request_error', 'This method is not supported on this path.', 'method_not_allowed', null, null, [
            'Allow' => implode(', ', $allowed),
        ]);
    }

    public static function rateLimited(int $retryAfter): self
    {
        $unit = $retryAfter === 1 ? 'second' : 'seconds';

        return new self(429, 'rate_limit_error', "Too many requests. Retry in {$retryAfter} {$unit}.", 'rate_limit_exceeded', null, null, [
            'Retry-After' => (string) $retryAfter,
        ]);
    }

    public static function internal(): self
    {
        return new self(500, 'api_error', 'An unexpected error occurred.');
    }
}
