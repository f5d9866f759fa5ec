<?php

declare(strict_types=1);

namespace Api\Controllers;

/** The states a record can be in. The API exposes no transitions. */
enum RecordStatus: string
{
    case Draft = 'draft';
    case InReview = 'in_review';
    case Approved = 'approved';
    case Rejected = 'rejected';
    case Archived = 'archived';

    /** @return list<string> */
    public static function values(): array
    {
        return array_map(static fn (self $s): string => $s->value, self::cases());
    }
}
