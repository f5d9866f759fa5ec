<?php

declare(strict_types=1);

namespace Api\Http;

/**
 * A small regex router. HEAD is served by the GET route; a path that exists
 * under another method answers 405 with an Allow header.
 */
final class Router
{
    /** @var list<array{0: string, 1: string, 2: callable}> */
    private array $routes = [];

    public function add(string $method, string $pattern, callable $handler): self
    {
        $this->routes[] = [$method, '#^' . $pattern . '$#D', $handler];

        return $this;
    }

    /**
     * @return array{0: callable, 1: array<string, string>} the handler and the path parameters
     */
    public function match(string $method, string $path): array
    {
        $lookup = $method === 'HEAD' ? 'GET' : $method;
        $allowed = [];
        foreach ($this->routes as [$routeMethod, $regex, $handler]) {
            if (preg_match($regex, $path, $matches) !== 1) {
                continue;
            }
            if ($routeMethod === '*' || $routeMethod === $lookup) {
                return [$handler, array_filter($matches, 'is_string', ARRAY_FILTER_USE_KEY)];
            }
            $allowed[] = $routeMethod;
            if ($routeMethod === 'GET') {
                $allowed[] = 'HEAD';
            }
        }

        if ($allowed !== []) {
            throw ApiError::methodNotAllowed(array_values(array_unique($allowed)));
        }

        throw ApiError::notFound('No endpoint matches this path.');
    }
}
