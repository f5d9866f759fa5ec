<?php

declare(strict_types=1);

namespace Api\Controllers;

use Api\Auth\ApiKeyContext;
use Api\Database;
use Api\Http\ApiError;
use Api\Http\Request;
use Api\Http\Response;

abstract class Controller
{
    public function __construct(
        protected readonly Request $request,
        protected readonly ApiKeyContext $context,
    ) {
    }

    /**
     * An optional string filter from the query string; an empty value means
     * no filter.
     */
    protected function filter(string $name): ?string
    {
        $value = $this->request->query($name);
        if ($value === null || $value === '') {
            return null;
        }
        if (!is_string($value)) {
            throw ApiError::invalid($name, "The {$name} filter must be a single string value.", 'invalid_type');
        }

        return $value;
    }

    /**
     * One row of $table that belongs to the caller's account, or null.
     *
     * @return array<string, mixed>|null
     */
    protected function findOwned(string $table, string $columns, string $id): ?array
    {
        $statement = Database::connection()->prepare(
            "SELECT {$columns} FROM {$table} WHERE id = ? AND account_id = ?"
        );
        $statement->execute([$id, $this->context->accountId]);
        $row = $statement->fetch();
        $statement->closeCursor();

        return $row === false ? null : $row;
    }

    protected function ok(mixed $payload): void
    {
        Response::json(200, $payload);
    }
}
