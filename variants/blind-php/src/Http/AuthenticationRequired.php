<?php

declare(strict_types=1);

namespace Api\Http;

/**
 * The 401 for a missing or malformed Authorization header. The API document
 * says this body differs from the common error envelope; it is the flat
 * {"error": "authentication_error", "message": "..."}.
 */
final class AuthenticationRequired extends ApiError
{
    public function __construct(string $message)
    {
        parent::__construct(401, 'authentication_error', $message, null, null, null, [
            'WWW-Authenticate' => 'Bearer realm="api"',
        ]);
    }

    public function body(): array
    {
        return [
            'error' => $this->type,
            'message' => $this->getMessage(),
        ];
    }
}
