<?php

declare(strict_types=1);

namespace Api\Controllers;

use Api\Config;
use Api\Database;
use Api\Http\ApiError;
use Api\Http\Json;
use Api\Http\Response;
use Api\Pagination;
use Api\Support\Clock;
use Api\Support\Ids;
use PDO;

/**
 * Submissions: batches of rows sent against a taxonomy inside a workspace.
 *
 * POST /api/v1/submissions?workspace_id=W
 *      {"workspace_id": "W", "taxonomy_id": "T", "rows": [{"data": {...}}, ...]}
 */
final class SubmissionController extends Controller
{
    private const COLUMNS = 'id, workspace_id, taxonomy_id, row_count, created_at';

    public function list(): void
    {
        $pagination = Pagination::fromRequest($this->request);
        $where = ['account_id = ?'];
        $params = [$this->context->accountId];
        foreach (['workspace_id', 'taxonomy_id'] as $filter) {
            $value = $this->filter($filter);
            if ($value !== null) {
                $where[] = "{$filter} = ?";
                $params[] = $value;
            }
        }

        $this->ok($pagination->fetch(
            self::COLUMNS,
            'FROM submissions WHERE ' . implode(' AND ', $where),
            $params,
            static fn (array $row): array => $row,
        ));
    }

    public function show(string $id): void
    {
        $row = $this->findOwned('submissions', self::COLUMNS, $id);
        if ($row === null) {
            throw ApiError::notFound('No submission exists with this id.');
        }

        $this->ok($row);
    }

    public function create(): void
    {
        // The workspace is named twice, in the query string and in the body;
        // both are required and must agree.
        $workspaceParam = $this->request->query('workspace_id');
        if ($workspaceParam === null || $workspaceParam === '') {
            throw ApiError::missing('workspace_id', null, 'The workspace_id query parameter is required.');
        }
        if (!is_string($workspaceParam)) {
            throw ApiError::invalid('workspace_id', 'The workspace_id query parameter must be a single string value.', 'invalid_type');
        }

        [$body, $stuffed] = $this->request->jsonObject();

        foreach (['workspace_id', 'taxonomy_id', 'rows'] as $field) {
            if (!property_exists($body, $field)) {
                throw ApiError::missing($field, $field, "The {$field} field is required.");
            }
        }
        foreach (['workspace_id', 'taxonomy_id'] as $field) {
            if (!is_string($body->{$field})) {
                throw ApiError::invalid($field, "The {$field} field must be a string.", 'invalid_type', $field);
            }
            if ($body->{$field} === '') {
                throw ApiError::invalid($field, "The {$field} field must not be empty.", 'invalid_value', $field);
            }
        }
        $rows = $body->rows;
        if (!is_array($rows)) {
            throw ApiError::invalid('rows', 'The rows field must be an array of objects.', 'invalid_type', 'rows');
        }
        if ($rows === []) {
            throw ApiError::invalid('rows', 'The rows field must contain at least one row.', 'invalid_value', 'rows');
        }
        if (count($rows) > Config::MAX_ROWS_PER_SUBMISSION) {
            throw new ApiError(422, 'plan_limit_exceeded',
                'A submission can hold at most ' . Config::MAX_ROWS_PER_SUBMISSION . ' rows on the current plan.',
                'limit_exceeded', 'rows', 'rows');
        }

        $encodedRows = [];
        foreach ($rows as $index => $row) {
            if (!$row instanceof \stdClass) {
                throw ApiError::invalid('rows', "Row {$index} must be an object.", 'invalid_type', "rows.{$index}");
            }
            if (!property_exists($row, 'data')) {
                throw ApiError::missing('rows', "rows.{$index}.data", "Row {$index} is missing its data object.");
            }
            if (!$row->data instanceof \stdClass) {
                throw ApiError::invalid('rows', "The data of row {$index} must be an object.", 'invalid_type', "rows.{$index}.data");
            }
            try {
                $encodedRows[] = Json::encode($row->data, $stuffed);
            } catch (\JsonException) {
                throw ApiError::invalid('rows', "The data of row {$index} holds a number that cannot be stored.", 'invalid_value', "rows.{$index}.data");
            }
        }

        if ($body->workspace_id !== $workspaceParam) {
            throw ApiError::invalid('workspace_id', 'The workspace_id in the body must match the workspace_id query parameter.', 'workspace_mismatch', 'workspace_id');
        }
        if ($this->findOwned('workspaces', 'id', $workspaceParam) === null) {
            throw ApiError::notFound('No workspace exists with this id.', 'workspace_id');
        }
        if ($this->findOwned('taxonomies', 'id', $body->taxonomy_id) === null) {
            throw ApiError::notFound('No taxonomy exists with this id.', 'taxonomy_id');
        }

        $submission = [
            'id' => Ids::uuid(),
            'workspace_id' => $workspaceParam,
            'taxonomy_id' => $body->taxonomy_id,
            'row_count' => count($encodedRows),
            'created_at' => Clock::nowIso(),
        ];
        $accountId = $this->context->accountId;
        Database::writeTransaction(static function (PDO $db) use ($submission, $encodedRows, $accountId): void {
            $db->prepare('INSERT INTO submissions (id, account_id, workspace_id, taxonomy_id, row_count, created_at)
                          VALUES (?, ?, ?, ?, ?, ?)')
                ->execute([$submission['id'], $accountId, $submission['workspace_id'], $submission['taxonomy_id'],
                    $submission['row_count'], $submission['created_at']]);
            $insertRow = $db->prepare('INSERT INTO submission_rows (submission_id, position, data) VALUES (?, ?, ?)');
            foreach ($encodedRows as $position => $data) {
                $insertRow->execute([$submission['id'], $position, $data]);
            }
        });

        Response::json(201, $submission, ['Location' => '/api/v1/submissions/' . $submission['id']]);
    }
}
