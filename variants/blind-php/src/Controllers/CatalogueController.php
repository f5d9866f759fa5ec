<?php

declare(strict_types=1);

namespace Api\Controllers;

use Api\Http\ApiError;
use Api\Pagination;

/**
 * Read-only resources of an account: workspaces, governance models, records,
 * taxonomies, fields and picklists. Each can be listed and retrieved by id.
 */
final class CatalogueController extends Controller
{
    /** @var array<string, array{columns: string, noun: string}> */
    private const RESOURCES = [
        'workspaces' => [
            'columns' => 'id, name, description, created_at',
            'noun' => 'workspace',
        ],
        'governance_models' => [
            'columns' => 'id, name, description, version, created_at',
            'noun' => 'governance model',
        ],
        'records' => [
            'columns' => 'id, status, service_id, workspace_id, data, created_at, updated_at',
            'noun' => 'record',
        ],
        'taxonomies' => [
            'columns' => 'id, name, description, created_at',
            'noun' => 'taxonomy',
        ],
        'fields' => [
            'columns' => 'id, taxonomy_id, name, key, data_type, required, picklist_id, created_at',
            'noun' => 'field',
        ],
        'picklists' => [
            'columns' => 'id, name, options, created_at',
            'noun' => 'picklist',
        ],
    ];

    public function list(string $resource): void
    {
        $pagination = Pagination::fromRequest($this->request);
        $where = ['account_id = ?'];
        $params = [$this->context->accountId];

        if ($resource === 'records') {
            $status = $this->filter('status');
            if ($status !== null) {
                if (RecordStatus::tryFrom($status) === null) {
                    throw ApiError::invalid('status', 'The status filter must be one of: ' . implode(', ', RecordStatus::values()) . '.');
                }
                $where[] = 'status = ?';
                $params[] = $status;
            }
            $workspaceId = $this->filter('workspace_id');
            if ($workspaceId !== null) {
                $where[] = 'workspace_id = ?';
                $params[] = $workspaceId;
            }
        }
        if ($resource === 'fields') {
            $taxonomyId = $this->filter('taxonomy_id');
            if ($taxonomyId !== null) {
                $where[] = 'taxonomy_id = ?';
                $params[] = $taxonomyId;
            }
        }

        $this->ok($pagination->fetch(
            self::RESOURCES[$resource]['columns'],
            "FROM {$resource} WHERE " . implode(' AND ', $where),
            $params,
            fn (array $row): array => self::present($resource, $row),
        ));
    }

    public function show(string $resource, string $id): void
    {
        $row = $this->findOwned($resource, self::RESOURCES[$resource]['columns'], $id);
        if ($row === null) {
            throw ApiError::notFound('No ' . self::RESOURCES[$resource]['noun'] . ' exists with this id.');
        }

        $this->ok(self::present($resource, $row));
    }

    /**
     * @param array<string, mixed> $row
     * @return array<string, mixed>
     */
    private static function present(string $resource, array $row): array
    {
        return match ($resource) {
            'records' => [
                'id' => $row['id'],
                'status' => $row['status'],
                'service_id' => $row['service_id'],
                'workspace_id' => $row['workspace_id'],
                'data' => json_decode($row['data'], false, 512, JSON_THROW_ON_ERROR),
                'created_at' => $row['created_at'],
                'updated_at' => $row['updated_at'],
            ],
            'fields' => [
                'id' => $row['id'],
                'taxonomy_id' => $row['taxonomy_id'],
                'name' => $row['name'],
                'key' => $row['key'],
                'data_type' => $row['data_type'],
                'required' => (bool) $row['required'],
                'picklist_id' => $row['picklist_id'],
                'created_at' => $row['created_at'],
            ],
            'picklists' => [
                'id' => $row['id'],
                'name' => $row['name'],
                'options' => json_decode($row['options'], false, 512, JSON_THROW_ON_ERROR),
                'created_at' => $row['created_at'],
            ],
            default => $row,
        };
    }
}
