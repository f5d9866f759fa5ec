<?php

declare(strict_types=1);

namespace Api\Support;

final class Clock
{
    /** The current time as ISO 8601 UTC with microseconds, e.g. 2024-05-01T09:30:00.123456Z. */
    public static function nowIso(): string
    {
        return (new \DateTimeImmutable('now', new \DateTimeZone('UTC')))->format('Y-m-d\TH:i:s.u\Z');
    }
}
