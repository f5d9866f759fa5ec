<?php

declare(strict_types=1);

namespace Api\Auth;

/** The authenticated API key and the account it acts for. */
final class ApiKeyContext
{
    public function __construct(
        public readonly string $keyId,
        public readonly string $accountId,
    ) {
    }
}
