<?php

declare(strict_types=1);

namespace Api\Controllers;

use Api\Config;
use Api\Database;
use Api\Http\ApiError;
use Api\Http\Response;
use Api\Pagination;
use Api\Support\Clock;
use Api\Support\Ids;

/**
 * API keys of the caller's account. The full key is returned once, by
 * create(); only its SHA-256 hash and a 4-character hint are stored.
 */
final class ApiKeyController extends Controller
{
    private const COLUMNS = 'id, name, hint, created_at, last_used_at';

    public function list(): void
    {
        $this->ok(Pagination::fromRequest($this->request)->fetch(
            self::COLUMNS,
            'FROM api_keys WHERE account_id = ? AND revoked_at IS NULL',
            [$this->context->accountId],
            static fn (array $row): array => $row,
        ));
    }

    public function show(string $id): void
    {
        $statement = Database::connection()->prepare(
            'SELECT ' . self::COLUMNS . ' FROM api_keys WHERE id = ? AND account_id = ? AND revoked_at IS NULL'
        );
        $statement->execute([$id, $this->context->accountId]);
        $row = $statement->fetch();
        $statement->closeCursor();
        if ($row === false) {
            throw ApiError::notFound('No API key exists with this id.');
        }

        $this->ok($row);
    }

    public function create(): void
    {
        [$body] = $this->request->jsonObject();
        if (!property_exists($body, 'name')) {
            throw ApiError::missing('name', 'name', 'The name field is required.');
        }
        if (!is_string($body->name)) {
            throw ApiError::invalid('name', 'The name field must be a string.', 'invalid_type', 'name');
        }
        $name = trim($body->name);
        if ($name === '') {
            throw ApiError::invalid('name', 'The name field must not be blank.', 'invalid_value', 'name');
        }
        if (preg_match_all('/./su', $name) > Config::MAX_KEY_NAME_LENGTH) {
            throw ApiError::invalid('name', 'The name field may hold at most ' . Config::MAX_KEY_NAME_LENGTH . ' characters.', 'invalid_value', 'name');
        }

        $secret = Ids::randomAlphanumeric(Config::KEY_SECRET_LENGTH);
        $token = Config::KEY_PREFIX . $secret;
        $key = [
            'id' => Ids::uuid(),
            'name' => $name,
            'hint' => Config::KEY_PREFIX . '...' . substr($secret, -4),
            'created_at' => Clock::nowIso(),
            'last_used_at' => null,
        ];
        Database::connection()
            ->prepare('INSERT INTO api_keys (id, account_id, name, key_hash, hint, created_at) VALUES (?, ?, ?, ?, ?, ?)')
            ->execute([$key['id'], $this->context->accountId, $key['name'], hash('sha256', $token), $key['hint'], $key['created_at']]);

        Response::json(201, ['id' => $key['id'], 'name' => $key['name'], 'key' => $token] + $key, [
            'Location' => '/api/v1/api_keys/' . $key['id'],
            'Cache-Control' => 'no-store',
        ]);
    }

    public function delete(string $id): void
    {
        $statement = Database::connection()->prepare(
            'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL'
        );
        $statement->execute([Clock::nowIso(), $id, $this->context->accountId]);
        if ($statement->rowCount() === 0) {
            throw ApiError::notFound('No API key exists with this id.');
        }

        Response::noContent();
    }
}
