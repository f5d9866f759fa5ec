<?php

declare(strict_types=1);

namespace Api\Http;

final class Response
{
    public const JSON_FLAGS = JSON_UNESCAPED_SLASHES
        | JSON_UNESCAPED_UNICODE
        | JSON_PRESERVE_ZERO_FRACTION
        | JSON_INVALID_UTF8_SUBSTITUTE
        | JSON_THROW_ON_ERROR;

    /**
     * @param array<string, string> $headers
     */
    public static function json(int $status, mixed $payload, array $headers = []): void
    {
        $body = json_encode($payload, self::JSON_FLAGS);
        http_response_code($status);
        header('Content-Type: application/json');
        foreach ($headers as $name => $value) {
            header("{$name}: {$value}");
        }
        echo $body;
    }

    /**
     * @param array<string, string> $headers
     */
    public static function noContent(array $headers = []): void
    {
        ini_set('default_mimetype', '');
        header_remove('Content-Type');
        http_response_code(204);
        foreach ($headers as $name => $value) {
            header("{$name}: {$value}");
        }
    }

    public static function error(ApiError $error): void
    {
        self::json($error->status, $error->body(), $error->headers);
    }
}
