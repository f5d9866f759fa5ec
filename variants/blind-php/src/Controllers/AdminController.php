<?php

declare(strict_types=1);

namespace Api\Controllers;

use Api\Http\ApiError;

/**
 * Admin-only endpoints (/api/v1/admin/...). They exist for people signed in
 * to the web app as admins; an API key can never reach them.
 */
final class AdminController
{
    public function deny(): never
    {
        throw ApiError::forbidden('API keys cannot access admin-only endpoints.');
    }
}
