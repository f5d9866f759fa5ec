<?php

declare(strict_types=1);

namespace Api\Http;

use Api\Config;

/**
 * The current HTTP request, read from PHP's superglobals.
 */
final class Request
{
    private ?string $rawBody = null;

    /**
     * @param array<string, mixed>  $query   $_GET
     * @param array<string, string> $headers request headers, names lower-cased
     */
    public function __construct(
        public readonly string $method,
        public readonly string $path,
        public readonly string $queryString,
        private readonly array $query,
        private readonly array $headers,
        public readonly string $clientIp,
    ) {
    }

    public static function fromGlobals(): self
    {
        $uri = (string) ($_SERVER['REQUEST_URI'] ?? '/');
        // Not parse_url(): it reads "//host/..." as an authority.
        $path = rawurldecode(explode('?', $uri, 2)[0]);

        $headers = [];
        foreach (function_exists('getallheaders') ? getallheaders() : [] as $name => $value) {
            $headers[strtolower((string) $name)] = (string) $value;
        }
        if (!isset($headers['authorization']) && isset($_SERVER['HTTP_AUTHORIZATION'])) {
            $headers['authorization'] = (string) $_SERVER['HTTP_AUTHORIZATION'];
        }

        return new self(
            strtoupper((string) ($_SERVER['REQUEST_METHOD'] ?? 'GET')),
            $path,
            (string) ($_SERVER['QUERY_STRING'] ?? ''),
            $_GET,
            $headers,
            (string) ($_SERVER['REMOTE_ADDR'] ?? 'unknown'),
        );
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    public function hasQuery(string $name): bool
    {
        return array_key_exists($name, $this->query);
    }

    /** The raw $_GET value: a string, an array (name[]=...) or null when absent. */
    public function query(string $name): mixed
    {
        return $this->query[$name] ?? null;
    }

    /**
     * How many times the parameter appears in the query string. PHP keeps only
     * the last of repeated parameters in $_GET, so this reads the raw string.
     */
    public function queryCount(string $name): int
    {
        $count = 0;
        foreach (explode('&', $this->queryString) as $pair) {
            if ($pair === '') {
                continue;
            }
            $key = urldecode(explode('=', $pair, 2)[0]);
            $bracket = strpos($key, '[');
            if ($bracket !== false && $bracket > 0) {
                $key = substr($key, 0, $bracket);
            }
            if ($key === $name) {
                $count++;
            }
        }

        return $count;
    }

    public function rawBody(): string
    {
        if ($this->rawBody === null) {
            $length = filter_var($_SERVER['CONTENT_LENGTH'] ?? '', FILTER_VALIDATE_INT);
            if ($length !== false && $length > Config::MAX_BODY_BYTES) {
                throw self::tooLarge();
            }
            $stream = fopen('php://input', 'rb');
            $body = $stream === false ? '' : stream_get_contents($stream, Config::MAX_BODY_BYTES + 1);
            if ($stream !== false) {
                fclose($stream);
            }
            if ($body === false) {
                $body = '';
            }
            if (strlen($body) > Config::MAX_BODY_BYTES) {
                throw self::tooLarge();
            }
            $this->rawBody = $body;
        }

        return $this->rawBody;
    }

    /**
     * The request body as a JSON object. An empty body counts as {} (so that
     * required members are reported missing).
     *
     * @return array{0: \stdClass, 1: bool} the object and whether it is stuffed (see Json)
     */
    public function jsonObject(): array
    {
        $raw = $this->rawBody();
        if (trim($raw, " \t\r\n") === '') {
            return [new \stdClass(), false];
        }

        $contentType = strtolower(trim(explode(';', $this->header('Content-Type') ?? '', 2)[0]));
        if ($contentType !== 'application/json' && !str_ends_with($contentType, '+json')) {
            throw new ApiError(415, 'invalid_request_error', 'Request bodies must be sent as Content-Type: application/json.', 'unsupported_media_type');
        }

        try {
            [$value, $stuffed] = Json::decode($raw);
        } catch (\JsonException $e) {
            throw new ApiError(400, 'invalid_request_error', 'The request body is not valid JSON: ' . $e->getMessage() . '.', 'invalid_json');
        }

        if (!$value instanceof \stdClass) {
            throw ApiError::invalid('body', 'The request body must be a JSON object.', 'invalid_type');
        }

        return [$value, $stuffed];
    }

    /**
     * Reads and discards a body that the handler did not read, while PHP still
     * runs. A broken chunked body then surfaces during the request and gets
     * Apache's JSON error document, instead of Apache's HTML page afterwards.
     */
    public function drainBody(): void
    {
        if ($this->rawBody !== null) {
            return;
        }
        $stream = fopen('php://input', 'rb');
        if ($stream === false) {
            return;
        }
        $read = 0;
        while ($read <= Config::MAX_BODY_BYTES) {
            $chunk = fread($stream, 65536);
            if ($chunk === false || $chunk === '') {
                break;
            }
            $read += strlen($chunk);
        }
        fclose($stream);
    }

    private static function tooLarge(): ApiError
    {
        $mib = intdiv(Config::MAX_BODY_BYTES, 1024 * 1024);

        return new ApiError(413, 'invalid_request_error', "The request body is larger than {$mib} MiB.", 'payload_too_large');
    }
}
