<?php

declare(strict_types=1);

namespace Api;

use Api\Auth\ApiKeyContext;
use Api\Auth\Authenticator;
use Api\Controllers\AdminController;
use Api\Controllers\ApiKeyController;
use Api\Controllers\CatalogueController;
use Api\Controllers\SubmissionController;
use Api\Http\ApiError;
use Api\Http\Request;
use Api\Http\Response;
use Api\Http\Router;

/**
 * The front controller's application: authenticate, rate-limit, route,
 * and answer every error as JSON.
 */
final class App
{
    private const ID = '(?<id>[^/]+)';

    public function run(): void
    {
        $request = null;
        try {
            $request = Request::fromGlobals();
            $context = (new Authenticator())->authenticate($request);
            [$handler, $params] = $this->router($request, $context)->match($request->method, $request->path);
            $handler($params);
        } catch (ApiError $error) {
            Response::error($error);
        } catch (\Throwable $e) {
            error_log('Unhandled ' . $e::class . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
            Response::error(ApiError::internal());
        } finally {
            $request?->drainBody();
        }
    }

    private function router(Request $request, ApiKeyContext $context): Router
    {
        $catalogue = new CatalogueController($request, $context);
        $submissions = new SubmissionController($request, $context);
        $keys = new ApiKeyController($request, $context);
        $admin = new AdminController();
        $id = self::ID;

        return (new Router())
            ->add('GET', '/api/v1/workspaces', fn () => $catalogue->list('workspaces'))
            ->add('GET', "/api/v1/workspaces/{$id}", fn (array $p) => $catalogue->show('workspaces', $p['id']))
            ->add('GET', '/api/v1/governance_models', fn () => $catalogue->list('governance_models'))
            ->add('GET', "/api/v1/governance_models/{$id}", fn (array $p) => $catalogue->show('governance_models', $p['id']))
            ->add('GET', '/api/v1/records', fn () => $catalogue->list('records'))
            ->add('GET', "/api/v1/records/{$id}", fn (array $p) => $catalogue->show('records', $p['id']))
            ->add('GET', '/api/v1/taxonomies', fn () => $catalogue->list('taxonomies'))
            ->add('GET', "/api/v1/taxonomies/{$id}", fn (array $p) => $catalogue->show('taxonomies', $p['id']))
            ->add('GET', '/api/v1/fields', fn () => $catalogue->list('fields'))
            ->add('GET', "/api/v1/fields/{$id}", fn (array $p) => $catalogue->show('fields', $p['id']))
            ->add('GET', '/api/v1/picklists', fn () => $catalogue->list('picklists'))
            ->add('GET', "/api/v1/picklists/{$id}", fn (array $p) => $catalogue->show('picklists', $p['id']))
            ->add('GET', '/api/v1/submissions', fn () => $submissions->list())
            ->add('POST', '/api/v1/submissions', fn () => $submissions->create())
            ->add('GET', "/api/v1/submissions/{$id}", fn (array $p) => $submissions->show($p['id']))
            ->add('GET', '/api/v1/api_keys', fn () => $keys->list())
            ->add('POST', '/api/v1/api_keys', fn () => $keys->create())
            ->add('GET', "/api/v1/api_keys/{$id}", fn (array $p) => $keys->show($p['id']))
            ->add('DELETE', "/api/v1/api_keys/{$id}", fn (array $p) => $keys->delete($p['id']))
            ->add('*', '/api/v1/admin(?:/.*)?', fn () => $admin->deny());
    }
}
