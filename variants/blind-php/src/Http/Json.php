<?php

declare(strict_types=1);

namespace Api\Http;

/**
 * JSON decoding that keeps objects and arrays apart (objects decode to
 * stdClass, so {} and [] stay different), and storage encoding.
 *
 * PHP cannot make a stdClass property whose name starts with a NUL byte
 * (json_decode fails with JSON_ERROR_INVALID_PROPERTY_NAME). For that rare
 * input the body is decoded in a "stuffed" form: every string that starts
 * with NUL or with U+F8FF gets one U+F8FF in front, and encode() removes it
 * again, so the stored JSON is exactly what the client sent.
 */
final class Json
{
    private const MARK = "\u{F8FF}";
    private const STRING_LITERAL = '/"(?:[^"\\\\]++|\\\\.)*+"/s';

    /**
     * @return array{0: mixed, 1: bool} the decoded value and whether it is stuffed
     * @throws \JsonException on malformed JSON
     */
    public static function decode(string $raw): array
    {
        try {
            return [json_decode($raw, false, 512, JSON_THROW_ON_ERROR), false];
        } catch (\JsonException $e) {
            if ($e->getCode() !== JSON_ERROR_INVALID_PROPERTY_NAME) {
                throw $e;
            }
        }

        $stuffed = preg_replace_callback(self::STRING_LITERAL, static function (array $m): string {
            $value = json_decode($m[0], false, 512, JSON_THROW_ON_ERROR);
            if (is_string($value) && (str_starts_with($value, "\0") || str_starts_with($value, self::MARK))) {
                return json_encode(self::MARK . $value, JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
            }

            return $m[0];
        }, $raw);
        if ($stuffed === null) {
            throw new \JsonException('Malformed JSON', JSON_ERROR_SYNTAX);
        }

        return [json_decode($stuffed, false, 512, JSON_THROW_ON_ERROR), true];
    }

    /**
     * Encodes a decoded value for storage.
     *
     * @throws \JsonException when the value holds a number JSON cannot carry (1e400)
     */
    public static function encode(mixed $value, bool $stuffed = false): string
    {
        $json = json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE
            | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR);
        if (!$stuffed) {
            return $json;
        }

        $unstuffed = preg_replace_callback(self::STRING_LITERAL, static function (array $m): string {
            return str_starts_with($m[0], '"' . self::MARK) ? '"' . substr($m[0], 1 + strlen(self::MARK)) : $m[0];
        }, $json);
        if ($unstuffed === null) {
            throw new \JsonException('Cannot encode value', JSON_ERROR_UTF8);
        }

        return $unstuffed;
    }
}
