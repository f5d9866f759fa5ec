<?php

declare(strict_types=1);

namespace Api;

use Api\Http\ApiError;
use Api\Http\Request;
use PDO;

/**
 * The page and limit query parameters and the list envelope
 * {items, has_more, total_count} shared by every list endpoint.
 */
final class Pagination
{
    private function __construct(public readonly int $page, public readonly int $limit)
    {
    }

    public static function fromRequest(Request $request): self
    {
        return new self(
            self::integer($request, 'page', Config::DEFAULT_PAGE, 1, PHP_INT_MAX),
            self::integer($request, 'limit', Config::DEFAULT_LIMIT, 1, Config::MAX_LIMIT),
        );
    }

    /**
     * Runs the count and the page query in one snapshot and builds the envelope.
     *
     * @param string                          $from   "FROM ... WHERE ..." (trusted SQL, values bound)
     * @param list<mixed>                     $params values for the placeholders of $from
     * @param callable(array<string, mixed>): array<string, mixed> $present
     * @return array{items: list<array<string, mixed>>, has_more: bool, total_count: int}
     */
    public function fetch(string $columns, string $from, array $params, callable $present): array
    {
        return Database::readTransaction(function (PDO $db) use ($columns, $from, $params, $present): array {
            $count = $db->prepare("SELECT COUNT(*) {$from}");
            $count->execute($params);
            $total = (int) $count->fetchColumn();

            $pages = intdiv($total + $this->limit - 1, $this->limit);
            $items = [];
            if ($this->page <= $pages) {
                $select = $db->prepare("SELECT {$columns} {$from} ORDER BY seq LIMIT ? OFFSET ?");
                $select->execute([...$params, $this->limit, ($this->page - 1) * $this->limit]);
                $items = array_map($present, $select->fetchAll());
            }

            return [
                'items' => $items,
                'has_more' => $this->page < $pages,
                'total_count' => $total,
            ];
        });
    }

    private static function integer(Request $request, string $name, int $default, int $min, int $max): int
    {
        if ($request->queryCount($name) > 1) {
            throw ApiError::invalid($name, "The {$name} parameter may be given only once.", 'repeated_param');
        }
        if (!$request->hasQuery($name)) {
            return $default;
        }

        $range = $max === PHP_INT_MAX ? "an integer of at least {$min}" : "an integer from {$min} to {$max}";
        $raw = $request->query($name);
        $value = is_string($raw) ? filter_var($raw, FILTER_VALIDATE_INT) : false;
        if ($value === false) {
            throw ApiError::invalid($name, "The {$name} parameter must be {$range}.", 'invalid_integer');
        }
        if ($value < $min || $value > $max) {
            throw ApiError::invalid($name, "The {$name} parameter must be {$range}.", 'out_of_range');
        }

        return $value;
    }
}
